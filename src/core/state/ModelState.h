#pragma once
// The state of a model's bodies, which forces, constraints and collision read (Witkin,
// Particle System Dynamics, SIGGRAPH 2001 notes: the particle system's state). Three kinds
// of body:
//   particles (Witkin): position and velocity, 3 + 3 numbers;
//   rigid bodies (Baraff, Rigid Body Simulation, SIGGRAPH 2001 notes): (x, q) and (P, L),
//     7 + 6 numbers (RigidBodies.h);
//   parametric beads (Witkin, Constrained Dynamics, parametric bead): (theta, theta'),
//     padded to 3 + 3 (ParametricBeads.h).
// Configuration and velocity coordinates are each laid out particles, then rigid bodies, then
// beads. The velocity coordinates are a particle's velocity, a body's momenta (P, L), a
// bead's theta'. The velocity blocks (3 numbers each: one per particle and bead, two per
// body, linear then angular) are the space forces, Jacobians, constraint rows and the
// inverse mass operator W live in: a force on a body is (F, tau), a body's velocity
// (v, omega). Fixed particles and bodies have W = 0.
// World (dynamics/World.h) is this state with the forces, constraints and planes that act on
// it; the layers below World see only this.
#include <vector>

#include "core/bodies/Anchor.h"
#include "core/bodies/InverseMass.h"
#include "core/bodies/ParametricBeads.h"
#include "core/bodies/RigidBodies.h"

namespace tinkerbox {

struct ParticleInit {
    Vec3 position = Vec3::Zero();
    Vec3 velocity = Vec3::Zero();
    double mass = 1.0;
    bool nailed = false;

    bool operator==(const ParticleInit&) const = default;
};

// Where an anchor is and how it moves, in world coordinates.
struct AnchorKinematics {
    Vec3 position = Vec3::Zero();  // of the anchor point
    Vec3 velocity = Vec3::Zero();  // of the anchor point
    Vec3 lever = Vec3::Zero();     // r = position - centre of mass (zero for a particle)
    Vec3 angularVelocity = Vec3::Zero();
    Mat3 rotation = Mat3::Identity();  // body frame to world
    bool rigid = false;
};

class ModelState {
public:
    // Particles. Adding many at once costs O(n) in total; one by one costs O(n) each.
    void addParticles(const std::vector<ParticleInit>& particles);
    Index particleCount() const { return mass_.size(); }
    const VecX& positions() const { return x_; }
    Vec3 position(Index i) const { return block3(x_, i); }
    Vec3 velocity(Index i) const { return block3(v_, i); }
    double mass(Index i) const { return mass_[i]; }
    bool isNailed(Index i) const { return particleInverseMass_[3 * i] == 0.0; }
    void setPosition(Index i, const Vec3& x) { block3(x_, i) = x; }
    void setVelocity(Index i, const Vec3& v) { block3(v_, i) = v; }
    void setMass(Index i, double m);
    void setNailed(Index i, bool nailed);
    // Moves a nailed particle to target over the time h, so that its velocity is right
    // for the damping of everything attached to it.
    void moveNailed(Index i, const Vec3& target, double h);

    // Rigid bodies and beads.
    Index addRigidBody(const RigidBodySpec& spec);
    const RigidBodies& rigidBodies() const { return bodies_; }
    RigidBodies& rigidBodies() { return bodies_; }
    Index rigidBodyCount() const { return bodies_.count(); }
    void addBead(const ParametricBead& bead);
    const ParametricBeads& beads() const { return beads_; }
    Index beadCount() const { return beads_.beadCount(); }
    // Every body and particle in the z = 0 plane, turning about z only.
    void setPlanar(bool planar);
    bool planar() const { return planar_; }

    // Anchors: where they are, how they move, and forces on them.
    bool hasAnchor(const Anchor& a) const;
    Vec3 anchorPosition(const Anchor& a) const;
    Vec3 anchorVelocity(const Anchor& a) const;
    AnchorKinematics anchorKinematics(const Anchor& a) const;
    // The inverse mass an anchor has along a unit direction (1/m for a particle; 1/m +
    // (r x n) . Iinv (r x n) for a body point): what a pull there moves.
    double effectiveInverseMass(const Anchor& a, const Vec3& direction) const;
    // f += a force F at the anchor: F on a particle; F and r x F on a body.
    void applyForce(const Anchor& a, const Vec3& F, VecX& f) const;
    // The first velocity block of a body (see above), and how many there are in all.
    Index velocityBlock(const BodyRef& body) const;
    Index velocityBlocks() const { return particleCount() + 2 * rigidBodyCount() + beadCount(); }
    Index rigidBlock(Index k) const { return particleCount() + 2 * k; }
    Index beadBlock(Index i) const { return particleCount() + 2 * rigidBodyCount() + i; }

    // The velocity coordinates (see above), and setting them.
    Index velocityDimension() const { return 3 * velocityBlocks(); }
    const VecX& velocities() const;
    void setVelocities(const VecX& u);
    // (v, omega) per velocity block: particles' and beads' velocity coordinates as they
    // are, a body's momenta turned into velocities.
    const VecX& generalizedVelocities() const;
    // W over the velocity blocks, at the current orientations.
    const InverseMass& inverseMass() const;
    // The generalized velocities (v, omega) change by dv, per velocity block (nailed
    // particles and fixed bodies keep theirs).
    void changeVelocities(const VecX& dv);
    // The mass blocks per velocity block, and which are fixed.
    void massBlocks(std::vector<Mat3>& mass, std::vector<char>& fixed) const;
    Index configurationDimension() const { return 3 * particleCount() + 7 * rigidBodyCount() + 3 * beadCount(); }
    // Whether every number of the state is finite.
    bool stateIsFinite() const;

    // The time the state is at (a wind's gusts, a moving nail's path depend on it).
    double time() const { return t_; }
    void setTime(double t) { t_ = t; }

    double kineticEnergy() const;
    Vec3 linearMomentum() const;
    Vec3 angularMomentum() const;  // about the origin

protected:
    void getConfiguration(Eigen::Ref<VecX> q) const;
    void setConfiguration(const Eigen::Ref<const VecX>& q);

    // World steps the state in place (drift, derivative, constraint projection).
    VecX x_, v_;                // particles
    VecX mass_;                 // per particle
    VecX particleInverseMass_;  // per dof, 0 when nailed
    RigidBodies bodies_;
    ParametricBeads beads_;
    bool planar_ = false;
    double t_ = 0.0;

private:
    mutable VecX velocityCoordinates_, generalizedVelocities_;
    mutable InverseMass inverseMass_;
};

}  // namespace tinkerbox
