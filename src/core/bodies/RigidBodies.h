#pragma once
// The rigid bodies of a world (Baraff, Rigid Body Simulation, SIGGRAPH 2001 notes,
// sections 2 and 4): per body the state (x, q, P, L), x the centre of mass, q a unit
// quaternion, P and L the linear and angular momenta; the constants m and Ibody (about the
// centre of mass, in the body frame). Derived quantities:
//   v = P / m,  Iinv = R Ibody^-1 R^T,  omega = Iinv L,
// and the state moves with xdot = v, qdot = 1/2 [0, omega] q, Pdot = F, Ldot = tau.
// Keeping the momenta, not (v, omega), is what keeps a spinning body stable: a torque-free
// body keeps L exactly under every integrator, so its kinetic energy 1/2 L . omega stays
// bounded by |L|^2 / (2 I_min) however fast it spins; the gyroscopic term omega x I omega
// never appears in a derivative.
// Planar bodies move in z = 0 and turn about z only: their inverse mass has no z part and
// their inverse inertia only the zz part (1 / Izz, Izz about the world z axis).
#include <memory>
#include <vector>

#include "core/bodies/ConvexHull.h"
#include "core/bodies/RigidBodySpec.h"

namespace tinkerbox {

// What the simulation needs of a body's shape: its mass, its inertia about the centre of
// mass in the body frame, and where the centre of mass is in the frame the shape is
// given in (anchors and drawing use that frame).
struct RigidBodyMass {
    double mass = 1.0;
    Mat3 inertia = Mat3::Identity();
    Vec3 centerOfMass = Vec3::Zero();
};

// The mass properties of a spec's shape (MassProperties.h), for its mass or its density; hull:
// its hull when one was built (ShapeKind::hull), not to build it again. Throws
// std::invalid_argument for a shape without a volume (convexHull's reason).
RigidBodyMass rigidBodyMass(const RigidBodySpec& spec, const ConvexHull* hull = nullptr);

class RigidBodies {
public:
    // Returns the new body's index. The spec's position is the shape frame's origin; its mass
    // properties are its shape's (rigidBodyMass), its hull built once for them and for the
    // body. Throws std::invalid_argument for a shape without a volume.
    Index add(const RigidBodySpec& spec, bool planar);
    Index count() const { return static_cast<Index>(x_.size()); }
    void setPlanar(bool planar);

    // State
    const Vec3& position(Index k) const { return x_[k]; }  // of the centre of mass
    const Quat& orientation(Index k) const { return q_[k]; }
    const Vec3& momentum(Index k) const { return P_[k]; }
    const Vec3& angularMomentum(Index k) const { return L_[k]; }
    Vec3 velocity(Index k) const { return inverseMass_[k] * planarLinear(P_[k]); }
    Vec3 angularVelocity(Index k) const { return inverseInertiaWorld(k) * L_[k]; }
    Mat3 rotation(Index k) const { return q_[k].toRotationMatrix(); }
    Mat3 inverseInertiaWorld(Index k) const;
    Mat3 inertiaWorld(Index k) const;  // R Ibody R^T (the planar Izz alone for planar bodies)
    double mass(Index k) const { return mass_[k]; }
    const Mat3& bodyInertia(Index k) const { return inertia_[k]; }
    const Vec3& centerOfMassInShapeFrame(Index k) const { return centerOfMass_[k]; }
    bool isFixed(Index k) const { return fixed_[k]; }
    const RigidBodySpec& spec(Index k) const { return spec_[k]; }
    // The hull of a convex body's points (its faces and edges), built once when its shape
    // is set and shared by drawing, picking and its collider; nullptr for a box or a sphere.
    const ConvexHull* hull(Index k) const { return hull_[k].get(); }
    // The spec with the current position, orientation and velocities.
    RigidBodySpec currentSpec(Index k) const;

    // A point given in the shape frame, in world coordinates, and its velocity.
    Vec3 worldPoint(Index k, const Vec3& shapePoint) const;
    Vec3 pointVelocity(Index k, const Vec3& worldPoint) const;

    void setPosition(Index k, const Vec3& centerOfMass) { x_[k] = centerOfMass; }
    void setOrientation(Index k, const Quat& q) { q_[k] = q.normalized(); }
    // Sets P and L from velocities (omega in world coordinates).
    void setVelocity(Index k, const Vec3& v, const Vec3& omega);
    void setFixed(Index k, bool fixed);
    void setMass(Index k, const RigidBodyMass& mass);
    void setSpec(Index k, const RigidBodySpec& spec);

    // The state in the world's vectors: 7 configuration numbers (x, q as w x y z) and 6
    // momentum numbers (P, L) per body.
    void getConfiguration(Eigen::Ref<VecX> out) const;
    void setConfiguration(const Eigen::Ref<const VecX>& in);  // renormalizes q
    void getMomenta(Eigen::Ref<VecX> out) const;
    void setMomenta(const Eigen::Ref<const VecX>& in);
    // d(x, q)/dt = (v, 1/2 [0, omega] q).
    void configurationRate(Eigen::Ref<VecX> out) const;
    // x += h v, and q turned as the free body turns in the time h with its momenta held:
    // the kinetic energy split into its parts about the principal axes, T = sum L_i^2 /
    // (2 I_i), each of whose flows is an exact turn about its axis at the rate L_i / I_i,
    // composed symmetrically (1/2, 1/2, 1, 1/2, 1/2 h about the axes 1, 2, 3, 2, 1): a
    // symplectic, second-order, time-reversible map that keeps L exactly and the energy
    // bounded without drift (Dullweber, Leimkuhler and McLachlan, "Symplectic splitting
    // methods for rigid body molecular dynamics", J. Chem. Phys. 107, 1997;
    // McLachlan, "Explicit Lie-Poisson integration and the Euler equations", Phys. Rev.
    // Lett. 71, 1993). Turning by h omega at the start's omega instead, q = exp(h omega)
    // q, is first order and pumps energy into a tumbling body step after step.
    // A planar body turns about z, where that is exact: q = exp(h omega) q, and so does a
    // body with equal principal moments (a cube, a sphere), whose omega = L / I is constant.
    void drift(double h);
    // x += h v, and q turned by backward Euler: q' = exp(h omega') q with omega' = I(q')^-1 L,
    // the angular velocity at the end. In the principal frame at the start, with D the
    // principal moments and lambda = L there, the end's omega' (the same vector in both
    // frames, as the turn is about it) solves D omega' = exp(-h omega') lambda. L stays
    // exact, and the energy cannot grow: lambda is lambda' = D omega' turned about omega',
    // so omega' . (lambda - lambda') = 0, and E(lambda) - E(lambda') = 1/2 (lambda -
    // lambda') . D^-1 (lambda - lambda') >= 0, E being quadratic with gradient omega.
    // (Turning by the start's omega, or by the splitting of drift, lets the energy of a fast
    // spin about the intermediate axis grow towards |L|^2 / (2 I_min).) Solved by Newton's
    // method; where it does not converge (turns of radians per step), by two backward steps
    // of h/2, each of which has the same property.
    void driftBackward(double h);
    // Moves body k by the displacement d (linear) and the rotation vector theta.
    void displace(Index k, const Vec3& d, const Vec3& theta);
    // Adds (m dv, I dw) to the momenta: a change of velocity (dv, dw) made by an impulse.
    void changeVelocity(Index k, const Vec3& dv, const Vec3& dw);
    // Adds a linear and an angular impulse to the momenta.
    void addImpulse(Index k, const Vec3& linear, const Vec3& angular);
    // Keeps what a force may change: no z force and only a z torque on a planar body.
    Vec3 planarLinear(const Vec3& f) const { return planar_ ? Vec3(f.x(), f.y(), 0.0) : f; }
    Vec3 planarAngular(const Vec3& t) const { return planar_ ? Vec3(0.0, 0.0, t.z()) : t; }

    // 1/2 P.v + 1/2 L.omega
    double kineticEnergy() const;

private:
    // One backward turn of body k by h (driftBackward), halved where Newton's method fails.
    void turnBackward(Index k, double h, int depth);
    static constexpr int kMaxBackwardHalvings = 12;

    std::vector<Vec3> x_, P_, L_;
    std::vector<Quat> q_;
    std::vector<double> mass_, inverseMass_;      // inverse 0 when fixed
    std::vector<Mat3> inertia_, inverseInertia_;  // body frame, about the centre of mass; inverse 0 when fixed
    std::vector<Quat> principalAxes_;             // body frame to principal axes (MassProperties.h)
    std::vector<Vec3> principalMoments_;
    std::vector<Vec3> centerOfMass_;
    std::vector<char> fixed_;
    std::vector<RigidBodySpec> spec_;
    std::vector<std::shared_ptr<const ConvexHull>> hull_;  // per body, of a ConvexShape only
    bool planar_ = false;
};

}  // namespace tinkerbox
