#pragma once
// Small systems and numerical helpers shared by the core tests.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include "core/bodies/RigidBodySpec.h"
#include "core/collision/Plane.h"
#include "core/math/Rotation.h"
#include "core/constraints/Constraint.h"
#include "core/constraints/ConstraintSpec.h"
#include "core/integrators/Integrator.h"
#include "core/dynamics/World.h"
#include "core/pipeline/Simulation.h"
#include "core/forces/ViscousDrag.h"

namespace tinkerbox::test {

// Harmonic oscillator with an exact solution: a free particle tied to a nailed particle
// at the origin by a zero-rest-length spring, so F = -k x is linear in 3D, optionally in
// viscous drag (F = -kd v, gamma = kd/m). Underdamped solution, wd = sqrt(w^2 - gamma^2/4):
//   x(t) = e^(-gamma t/2) [x0 cos(wd t) + (v0 + gamma x0/2)/wd sin(wd t)].
// x0 and v0 are not parallel (an ellipse that never passes through the nail, where the
// spring direction is undefined).
struct Oscillator {
    double stiffness = 4.0;
    double mass = 1.0;
    double drag = 0.0;
    Vec3 x0{1.0, 0.0, 0.5};
    Vec3 v0{0.0, 1.5, 0.0};

    double omega() const { return std::sqrt(stiffness / mass); }
    double gamma() const { return drag / mass; }
    double dampedOmega() const { return std::sqrt(omega() * omega() - 0.25 * gamma() * gamma()); }
    Vec3 position(double t) const {
        const double wd = dampedOmega(), decay = std::exp(-0.5 * gamma() * t);
        return decay * (x0 * std::cos(wd * t) + (v0 + 0.5 * gamma() * x0) * (std::sin(wd * t) / wd));
    }
    Vec3 velocity(double t) const {
        const double wd = dampedOmega(), decay = std::exp(-0.5 * gamma() * t);
        return decay *
               (v0 * std::cos(wd * t) - (omega() * omega() * x0 + 0.5 * gamma() * v0) * (std::sin(wd * t) / wd));
    }
    double energy() const { return 0.5 * mass * v0.squaredNorm() + 0.5 * stiffness * x0.squaredNorm(); }

    // Particle 0 is the nail, particle 1 the oscillating one.
    World build() const {
        World ps;
        ps.addParticle(Vec3::Zero(), Vec3::Zero(), 1.0, true);
        ps.addParticle(x0, v0, mass);
        ps.addSpring({0, 1, stiffness, 0.0, 0.0});
        if (drag > 0.0) ps.addForce(std::make_unique<ViscousDrag>(drag));
        return ps;
    }
};

// A chain hanging from a nailed first particle, laid out from `start` along `direction`
// with `stretch` times the rest length between neighbours. Returns the first index.
inline Index addChain(World& ps, int count, const Vec3& start, const Vec3& direction, double restLength, double stretch,
                      double stiffness, double damping, double mass) {
    const Index first = ps.particleCount();
    for (int k = 0; k < count; ++k)
        ps.addParticle(start + direction.normalized() * (k * restLength * stretch), Vec3::Zero(), mass, k == 0);
    for (int k = 0; k + 1 < count; ++k) ps.addSpring({first + k, first + k + 1, stiffness, damping, restLength});
    return first;
}

// A square cloth of n x n particles in the plane y = 0 with structural and shear springs,
// spaced `stretch` times the rest spacing; the two corners of the first row are nailed.
inline void addCloth(World& ps, int n, double spacing, double stretch, double stiffness, double damping, double mass) {
    const Index first = ps.particleCount();
    const auto id = [&](int i, int j) { return first + i * n + j; };
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            ps.addParticle(Vec3(j, 0.0, i) * (spacing * stretch), Vec3::Zero(), mass, i == 0 && (j == 0 || j == n - 1));
    const double diagonal = spacing * std::sqrt(2.0);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            if (j + 1 < n) ps.addSpring({id(i, j), id(i, j + 1), stiffness, damping, spacing});
            if (i + 1 < n) ps.addSpring({id(i, j), id(i + 1, j), stiffness, damping, spacing});
            if (i + 1 < n && j + 1 < n) {
                ps.addSpring({id(i, j), id(i + 1, j + 1), stiffness / 2, damping, diagonal});
                ps.addSpring({id(i + 1, j), id(i, j + 1), stiffness / 2, damping, diagonal});
            }
        }
}

// Random free particles (random masses and velocities) joined by random damped springs,
// each at a random stretch or compression. Deterministic for a given seed.
inline void addRandomSpringNetwork(World& ps, int particles, int springs, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_real_distribution<double> positive(0.5, 2.0);
    const Index first = ps.particleCount();
    for (int k = 0; k < particles; ++k)
        ps.addParticle(Vec3(unit(rng), unit(rng), unit(rng)), Vec3(unit(rng), unit(rng), unit(rng)), positive(rng));
    std::uniform_int_distribution<int> pick(0, particles - 1);
    for (int k = 0; k < springs; ++k) {
        const Index a = first + pick(rng);
        Index b = first + pick(rng);
        if (b == a) b = first + (b - first + 1) % particles;
        const double length = (ps.position(a) - ps.position(b)).norm();
        ps.addSpring({a, b, 20.0 * positive(rng), 0.5 * positive(rng), length * positive(rng)});
    }
}

inline Vec3 totalMomentum(const World& ps) {
    Vec3 p = Vec3::Zero();
    for (Index i = 0; i < ps.particleCount(); ++i) p += ps.mass(i) * ps.velocity(i);
    return p;
}

// Implicit solves tight enough that the CG error is far below anything a test measures.
inline IntegratorSettings tightSolver() {
    IntegratorSettings settings;
    settings.implicitSolver = {1e-12, 1000};
    return settings;
}

// One integrator step per frame, tight implicit solves, gravity -9.81 y, no drag.
inline SimulationSettings simulationSettings(std::string_view integrator, double dt) {
    SimulationSettings settings;
    settings.integrator = std::string(integrator);
    settings.dt = dt;
    settings.solver = tightSolver();
    return settings;
}

inline VecX stateOf(const OdeSystem& system) {
    VecX x;
    system.getState(x);
    return x;
}

inline StepReport stepMany(Integrator& integrator, MechanicalSystem& system, double h, int steps) {
    StepReport report;
    for (int k = 0; k < steps; ++k) integrator.step(system, h, report);
    return report;
}

// Dense Jacobians as the system reports them.
struct DenseJacobians {
    Eigen::MatrixXd dFdx, dFdv;
};

inline DenseJacobians analyticJacobians(World& ps, JacobianForm form) {
    BlockSparseMatrix dFdx, dFdv;
    ps.forceJacobians(form, dFdx, dFdv);
    return {dFdx.toDense(), dFdv.toDense()};
}

// Central differences of World::appliedForces in every position and velocity dof.
inline DenseJacobians finiteDifferenceJacobians(World& ps, double eps = 1e-6) {
    const Index n3 = ps.velocityDimension();
    DenseJacobians J{Eigen::MatrixXd(n3, n3), Eigen::MatrixXd(n3, n3)};
    VecX plus, minus;
    for (Index k = 0; k < n3; ++k) {
        const Index i = k / 3;
        const Vec3 x = ps.position(i), v = ps.velocity(i);
        const Vec3 e = Vec3::Unit(k % 3) * eps;
        ps.setPosition(i, x + e);
        ps.appliedForces(plus);
        ps.setPosition(i, x - e);
        ps.appliedForces(minus);
        ps.setPosition(i, x);
        J.dFdx.col(k) = (plus - minus) / (2.0 * eps);
        ps.setVelocity(i, v + e);
        ps.appliedForces(plus);
        ps.setVelocity(i, v - e);
        ps.appliedForces(minus);
        ps.setVelocity(i, v);
        J.dFdv.col(k) = (plus - minus) / (2.0 * eps);
    }
    return J;
}

// Largest entry difference relative to the largest entry (or 1, for near-zero matrices).
inline double relativeMaxDifference(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
    return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, a.cwiseAbs().maxCoeff());
}

// Least-squares slope of log(error) against log(h): the measured order of convergence.
inline double logLogSlope(const std::vector<double>& h, const std::vector<double>& error) {
    const auto n = static_cast<double>(h.size());
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t k = 0; k < h.size(); ++k) {
        const double x = std::log(h[k]), y = std::log(error[k]);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

// A measured value for RecordProperty, in scientific notation (std::to_string prints 1e-9
// as 0.000000).
inline std::string scientific(double value) {
    std::ostringstream out;
    out.precision(3);
    out << std::scientific << value;
    return out.str();
}

// ---- Constraints ----

// One constraint evaluated on its own, through its ConstraintRows: C and Cdot per row, and
// J and Jdot as dense rows x 3b matrices over the velocity blocks of the constraint's
// anchors (a particle's block; a body's linear and angular blocks), in anchor order.
struct ConstraintValues {
    VecX C, Cdot;
    Eigen::MatrixXd J, Jdot;
};

inline int anchorBlocks(const Constraint& constraint) {
    int blocks = 0;
    for (const Anchor& a : constraint.anchors()) blocks += a.isRigid() ? 2 : 1;
    return blocks;
}

inline ConstraintValues evaluateConstraint(const Constraint& constraint, const World& world) {
    const int rows = constraint.rowCount();
    const std::vector<Anchor> anchors = constraint.anchors();
    std::vector<AnchorKinematics> kinematics;
    std::vector<int> first;
    int blocks = 0;
    for (const Anchor& a : anchors) {
        kinematics.push_back(world.anchorKinematics(a));
        first.push_back(blocks);
        blocks += a.isRigid() ? 2 : 1;
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    VecX C = VecX::Constant(rows, nan), Cdot = VecX::Constant(rows, nan);
    std::vector<Vec3> J(rows * blocks, Vec3::Zero()), Jdot(rows * blocks, Vec3::Zero());
    ConstraintRows buffers{C.data(), Cdot.data(), J.data(), Jdot.data(), blocks, first, kinematics};
    constraint.evaluate(kinematics, buffers);
    ConstraintValues out{C, Cdot, Eigen::MatrixXd(rows, 3 * blocks), Eigen::MatrixXd(rows, 3 * blocks)};
    for (int r = 0; r < rows; ++r)
        for (int b = 0; b < blocks; ++b) {
            out.J.block<1, 3>(r, 3 * b) = J[r * blocks + b].transpose();
            out.Jdot.block<1, 3>(r, 3 * b) = Jdot[r * blocks + b].transpose();
        }
    return out;
}

// The generalized velocities of the constraint's anchors, stacked in block order (J times
// this is Cdot): a particle's velocity, a body's (v, omega).
inline VecX constraintVelocities(const Constraint& constraint, const World& world) {
    VecX v(3 * anchorBlocks(constraint));
    Index at = 0;
    for (const Anchor& a : constraint.anchors()) {
        if (a.isParticle()) {
            v.segment<3>(at) = world.velocity(a.index());
            at += 3;
        } else {
            v.segment<3>(at) = world.rigidBodies().velocity(a.index());
            v.segment<3>(at + 3) = world.rigidBodies().angularVelocity(a.index());
            at += 6;
        }
    }
    return v;
}

// Moves an anchor's body by s along direction d of its velocity block `block` (0: linear,
// 1: a body's rotation, by the rotation vector s d).
inline void nudge(World& world, const Anchor& a, int block, const Vec3& d, double s) {
    if (a.isParticle()) {
        world.setPosition(a.index(), world.position(a.index()) + s * d);
        return;
    }
    RigidBodies& bodies = world.rigidBodies();
    if (block == 0) bodies.setPosition(a.index(), bodies.position(a.index()) + s * d);
    else bodies.setOrientation(a.index(), rotateBy(bodies.orientation(a.index()), s * d));
}

// Central differences of C with respect to the positions (and rotations) of the
// constraint's anchors.
inline Eigen::MatrixXd finiteDifferenceConstraintJacobian(const Constraint& constraint, World& world,
                                                          double eps = 1e-6) {
    Eigen::MatrixXd J(constraint.rowCount(), 3 * anchorBlocks(constraint));
    Index column = 0;
    for (const Anchor& a : constraint.anchors())
        for (int block = 0; block < (a.isRigid() ? 2 : 1); ++block)
            for (int d = 0; d < 3; ++d) {
                const VecX before = [&] {
                    VecX s;
                    world.getState(s);
                    return s;
                }();
                nudge(world, a, block, Vec3::Unit(d), eps);
                const VecX plus = evaluateConstraint(constraint, world).C;
                world.setState(before, world.time());
                nudge(world, a, block, Vec3::Unit(d), -eps);
                const VecX minus = evaluateConstraint(constraint, world).C;
                world.setState(before, world.time());
                J.col(column++) = (plus - minus) / (2.0 * eps);
            }
    return J;
}

// Central differences along the motion: every anchor's body moved by +-eps times its
// velocity (and turned by +-eps omega). Returns the rates of C (compare with Cdot) and of
// J (compare with Jdot).
struct ConstraintRates {
    VecX Cdot;
    Eigen::MatrixXd Jdot;
};

inline ConstraintRates finiteDifferenceConstraintRates(const Constraint& constraint, World& world, double eps = 1e-6) {
    VecX before;
    world.getState(before);
    const auto moveAll = [&](double s) {
        world.setState(before, world.time());
        std::vector<BodyRef> moved;
        for (const Anchor& a : constraint.anchors()) {
            if (std::find(moved.begin(), moved.end(), a.body) != moved.end()) continue;
            moved.push_back(a.body);
            if (a.isParticle()) {
                nudge(world, a, 0, world.velocity(a.index()), s);
            } else {
                const Vec3 v = world.rigidBodies().velocity(a.index()),
                           w = world.rigidBodies().angularVelocity(a.index());
                nudge(world, a, 0, v, s);
                nudge(world, a, 1, w, s);
            }
        }
    };
    moveAll(eps);
    const ConstraintValues plus = evaluateConstraint(constraint, world);
    moveAll(-eps);
    const ConstraintValues minus = evaluateConstraint(constraint, world);
    world.setState(before, world.time());
    return {(plus.C - minus.C) / (2.0 * eps), (plus.J - minus.J) / (2.0 * eps)};
}

// The identities every constraint must satisfy at the system's state (a fixed constraint,
// one that does not move by itself): J = dC/dx, Cdot = J v = dC/dt along the motion,
// Jdot = dJ/dt along the motion. Differences are absolute; keep C, J and v of order 1.
inline void expectConsistentDerivatives(const Constraint& constraint, World& ps, double tolerance = 1e-7) {
    const ConstraintValues values = evaluateConstraint(constraint, ps);
    ASSERT_TRUE(values.C.allFinite() && values.Cdot.allFinite() && values.J.allFinite() && values.Jdot.allFinite())
        << "some entry was not written";
    const VecX v = constraintVelocities(constraint, ps);
    EXPECT_LT((values.J - finiteDifferenceConstraintJacobian(constraint, ps)).cwiseAbs().maxCoeff(), tolerance)
        << "J:\n"
        << values.J << "\nfinite differences:\n"
        << finiteDifferenceConstraintJacobian(constraint, ps);
    EXPECT_LT((values.Cdot - values.J * v).cwiseAbs().maxCoeff(), 1e-12) << "Cdot != J v";
    const ConstraintRates rates = finiteDifferenceConstraintRates(constraint, ps);
    EXPECT_LT((values.Cdot - rates.Cdot).cwiseAbs().maxCoeff(), tolerance) << "Cdot != dC/dt";
    EXPECT_LT((values.Jdot - rates.Jdot).cwiseAbs().maxCoeff(), tolerance) << "Jdot:\n"
                                                                           << values.Jdot << "\nfinite differences:\n"
                                                                           << rates.Jdot;
}

// A chain of rods hanging from a pivot: particle `first` at `pivot` and one particle of
// `mass` at each of `bobs`, each joined to the one before by a rod of their current
// distance. The pivot is held by a NailConstraint (a free particle, as in the example
// scenes) or, with nailConstraint = false, nailed outright (inverse mass 0). Returns the
// pivot's index.
inline Index addRodChain(World& ps, const Vec3& pivot, const std::vector<Vec3>& bobs, double mass = 1.0,
                         bool nailConstraint = true) {
    const Index first = ps.addParticle(pivot, Vec3::Zero(), mass, !nailConstraint);
    if (nailConstraint) ps.addConstraint(makeConstraint(NailSpec{first, pivot}));
    Index previous = first;
    for (const Vec3& bob : bobs) {
        const Index next = ps.addParticle(bob, Vec3::Zero(), mass);
        ps.addConstraint(makeConstraint(RodSpec{previous, next, (bob - ps.position(previous)).norm()}));
        previous = next;
    }
    return first;
}

// The period of an oscillating signal from its upward zero crossings (linear interpolation
// between samples): the mean spacing between the first and the last crossing. 0 when there
// are fewer than two crossings.
inline double periodFromZeroCrossings(const std::vector<double>& t, const std::vector<double>& y) {
    std::vector<double> crossings;
    for (std::size_t k = 1; k < y.size(); ++k)
        if (y[k - 1] < 0.0 && y[k] >= 0.0)
            crossings.push_back(t[k - 1] + (t[k] - t[k - 1]) * (-y[k - 1]) / (y[k] - y[k - 1]));
    if (crossings.size() < 2) return 0.0;
    return (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
}

// The exact period of a pendulum of length L swinging to amplitude theta0 in gravity g:
// T = 4 sqrt(L/g) K(sin(theta0/2)), with the complete elliptic integral K from the
// arithmetic-geometric mean, K(k) = pi / (2 AGM(1, sqrt(1 - k^2))).
inline double pendulumPeriod(double length, double g, double theta0) {
    const double k = std::sin(0.5 * theta0);
    double a = 1.0, b = std::sqrt(1.0 - k * k);
    for (int i = 0; i < 40 && std::abs(a - b) > 1e-16 * a; ++i) {
        const double next = 0.5 * (a + b);
        b = std::sqrt(a * b);
        a = next;
    }
    return 4.0 * std::sqrt(length / g) * (std::numbers::pi / (2.0 * a));
}

// Parameters for suites that run every integrator, and readable test names for them
// (GoogleTest names must be alphanumeric: "symplectic-euler" -> "symplectic_euler").
inline auto allIntegrators() {
    std::vector<std::string_view> names;
    for (const IntegratorKind* kind : integratorKinds()) names.push_back(kind->name);
    return ::testing::ValuesIn(names);
}

struct IntegratorParamName {
    std::string operator()(const ::testing::TestParamInfo<std::string_view>& info) const {
        std::string s(info.param);
        for (char& c : s)
            if (c == '-') c = '_';
        return s;
    }
};

// Standard gravity's magnitude, m/s^2.
inline constexpr double kG = 9.81;

// The ground plane (through the origin, normal +y) and a 1 m cube of 1 kg, with these
// surfaces: what the contact tests stack, slide and drop.
inline Plane groundPlane(double friction, double restitution) {
    Plane plane;
    plane.friction = friction;
    plane.restitution = restitution;
    return plane;
}

inline RigidBodySpec unitCube(double friction, double restitution) {
    RigidBodySpec spec;
    spec.shape = BoxShape{Vec3::Ones()};
    spec.mass = 1.0;
    spec.friction = friction;
    spec.restitution = restitution;
    return spec;
}

// The eight corners of a box of this size centred on the origin.
inline std::vector<Vec3> boxCorners(const Vec3& size) {
    std::vector<Vec3> corners;
    for (int i = 0; i < 8; ++i)
        corners.push_back(
            0.5 * Vec3(i & 1 ? size.x() : -size.x(), i & 2 ? size.y() : -size.y(), i & 4 ? size.z() : -size.z()));
    return corners;
}

}  // namespace tinkerbox::test
