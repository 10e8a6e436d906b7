// A bead on a circular wire (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes, bead on a wire): C = [N.(x - c), |x -
// c| - r], the closed-form multiplier of the lecture, and a constraint force that does no work.
#include "core/constraints/WireConstraint.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/TestSystems.h"
#include "core/forces/Gravity.h"
#include "core/integrators/RungeKutta4.h"

namespace tinkerbox {
namespace {

constexpr int kPlaneRow = 0, kRadialRow = 1;  // WireConstraint's row order

TEST(WireConstraint, CIsThePlaneOffsetAndTheRadialOffset) {
    const Vec3 center(0.2, -0.1, 0.4), normal = Vec3(1, 2, 2) / 3.0;
    World ps;
    ps.addParticle(Vec3(1.1, 0.3, -0.2), Vec3(0.4, -0.7, 1.2), 1.0);
    const WireConstraint wire(WireSpec{0, center, 0.9, normal});
    const test::ConstraintValues values = test::evaluateConstraint(wire, ps);
    const Vec3 d = ps.position(0) - center;
    ASSERT_EQ(values.C.size(), 2);
    EXPECT_NEAR(values.C[kPlaneRow], normal.dot(d), 1e-15);
    EXPECT_NEAR(values.C[kRadialRow], d.norm() - 0.9, 1e-15);
    EXPECT_LT((values.J.row(kPlaneRow).transpose() - normal).norm(), 1e-15);
    EXPECT_LT((values.J.row(kRadialRow).transpose() - d.normalized()).norm(), 1e-15);
    EXPECT_TRUE(values.Jdot.row(kPlaneRow).isZero(0.0));
    EXPECT_EQ(wire.scale(), 0.9);
}

TEST(WireConstraint, DerivativesMatchFiniteDifferences) {
    World ps;
    ps.addParticle(Vec3(1.1, 0.3, -0.2), Vec3(0.4, -0.7, 1.2), 1.0);
    test::expectConsistentDerivatives(WireConstraint(WireSpec{0, Vec3(0.2, -0.1, 0.4), 0.9, Vec3(1, 2, 2) / 3.0}), ps);
    // A normal that is not unit length is normalized.
    test::expectConsistentDerivatives(WireConstraint(WireSpec{0, Vec3::Zero(), 2.0, Vec3(0, 0, 5)}), ps);
    const test::ConstraintValues values =
        test::evaluateConstraint(WireConstraint(WireSpec{0, Vec3::Zero(), 2.0, Vec3(0, 0, 5)}), ps);
    EXPECT_NEAR(values.C[kPlaneRow], ps.position(0).z(), 1e-15);
}

TEST(WireConstraint, DegenerateWiresAreRejected) {
    EXPECT_THROW(WireConstraint(WireSpec{0, Vec3::Zero(), 0.0, Vec3::UnitZ()}), std::invalid_argument);
    EXPECT_THROW(WireConstraint(WireSpec{0, Vec3::Zero(), -1.0, Vec3::UnitZ()}), std::invalid_argument);
    EXPECT_THROW(WireConstraint(WireSpec{0, Vec3::Zero(), 1.0, Vec3::Zero()}), std::invalid_argument);
}

TEST(WireConstraint, HugeAndTinyNormalsAreNormalized) {
    EXPECT_EQ(std::get<WireSpec>(WireConstraint(WireSpec{0, Vec3::Zero(), 1.0, Vec3(0, 0, 1e300)}).spec()).normal,
              Vec3::UnitZ());
    EXPECT_EQ(std::get<WireSpec>(WireConstraint(WireSpec{0, Vec3::Zero(), 1.0, Vec3(0, -1e-300, 0)}).spec()).normal,
              -Vec3::UnitY());
    EXPECT_THROW(WireConstraint(WireSpec{0, Vec3::Zero(), 1.0, Vec3(0, 0, NAN)}), std::invalid_argument);
}

TEST(WireConstraint, BeadAtTheCentreGivesAZeroRadialRowNotNaN) {
    World ps;
    ps.addParticle(Vec3(1, 2, 0), Vec3(1, 0, 0), 1.0);
    const test::ConstraintValues values = test::evaluateConstraint(WireConstraint(WireSpec{0, Vec3(1, 2, 0), 1.0}), ps);
    EXPECT_EQ(values.C[kRadialRow], -1.0);
    EXPECT_TRUE(values.J.row(kRadialRow).isZero(0.0));
    EXPECT_TRUE(values.Jdot.row(kRadialRow).isZero(0.0));
    EXPECT_TRUE(values.J.row(kPlaneRow).transpose().isApprox(Vec3::UnitZ()));
}

// The closed form of Witkin's Constrained Dynamics notes for a bead on a wire centred at the origin:
//   lambda = [m (x.xdot)^2/(x.x) - m xdot.xdot - x.f] / |x|.
// It is the radial row's multiplier when the state is legal (C = Cdot = 0, so the feedback
// adds nothing), and for any state in the wire's plane once the feedback is off.
struct WireBead {
    World ps;
    Index bead = 0;
};

WireBead beadWithForces(const Vec3& x, const Vec3& v, double mass, double ks, double kd) {
    WireBead w;
    w.ps.addForce(std::make_unique<Gravity>(Vec3(0, -9.81, 0)));
    w.ps.addForce(std::make_unique<ViscousDrag>(0.3));
    w.bead = w.ps.addParticle(x, v, mass);
    // Another force: a spring to a nailed particle off to the side, in the same plane.
    const Index anchor = w.ps.addParticle(Vec3(2.0, 1.5, 0.0), Vec3::Zero(), 1.0, true);
    w.ps.addSpring({w.bead, anchor, 7.0, 0.4, 0.5});
    w.ps.addConstraint(makeConstraint(WireSpec{w.bead, Vec3::Zero(), 1.0, Vec3::UnitZ()}));
    ConstraintSettings settings;
    settings.ks = ks;
    settings.kd = kd;
    settings.solver = {1e-12, 100};
    w.ps.setConstraintSettings(settings);
    return w;
}

double closedFormMultiplier(const Vec3& x, const Vec3& v, double m, const Vec3& f) {
    return (m * x.dot(v) * x.dot(v) / x.dot(x) - m * v.dot(v) - x.dot(f)) / x.norm();
}

double radialMultiplierError(WireBead& w, double* lambdaOut = nullptr) {
    VecX a, f;
    w.ps.accelerations(a);
    const double lambda = w.ps.constraintSolver().multipliers()[kRadialRow];
    w.ps.appliedForces(f);
    const double expected =
        closedFormMultiplier(w.ps.position(w.bead), w.ps.velocity(w.bead), w.ps.mass(w.bead), block3(f, w.bead));
    EXPECT_NEAR(w.ps.constraintSolver().multipliers()[kPlaneRow], 0.0, 1e-12) << "nothing pushes out of the plane";
    if (lambdaOut) *lambdaOut = lambda;
    return std::abs(lambda - expected) / std::max(1.0, std::abs(expected));
}

// Legal states: on the unit wire at these angles, moving along it at 2.3 m/s, with the
// default feedback.
constexpr double kLegalAngles[] = {0.3, 2.0, -1.2, 4.0};
constexpr double kLegalSpeed = 2.3;

WireBead legalBead(double angle) {
    const Vec3 x(std::cos(angle), std::sin(angle), 0.0);
    return beadWithForces(x, kLegalSpeed * Vec3(-x.y(), x.x(), 0.0), 1.3, 400.0, 40.0);
}

TEST(WireConstraint, MultiplierIsSeed004sClosedForm) {
    double worst = 0.0;
    for (const double angle : kLegalAngles) {
        WireBead w = legalBead(angle);
        ASSERT_LT(std::abs(test::evaluateConstraint(*w.ps.constraints()[0], w.ps).C[kRadialRow]), 1e-15);
        worst = std::max(worst, radialMultiplierError(w));
    }
    // Any state in the plane, off the wire and moving across it, without feedback.
    WireBead off = beadWithForces(Vec3(0.6, -0.9, 0.0), Vec3(1.4, 0.8, 0.0), 0.7, 0.0, 0.0);
    worst = std::max(worst, radialMultiplierError(off));
    EXPECT_LT(worst, 1e-13);  // no regularization floor
    RecordProperty("closed_form_relative_error", test::scientific(worst));
}

// With no applied force the multiplier of a legal state is the centripetal force:
// J^T lambda = -m |v|^2 / r along the outward radius.
TEST(WireConstraint, ForceFreeBeadFeelsTheCentripetalForce) {
    World ps;
    ps.addParticle(Vec3(0, 2, 0), Vec3(3, 0, 0), 0.5);
    ps.addConstraint(makeConstraint(WireSpec{0, Vec3::Zero(), 2.0, Vec3::UnitZ()}));
    VecX a;
    ps.accelerations(a);
    EXPECT_NEAR(ps.constraintSolver().multipliers()[kRadialRow], -0.5 * 9.0 / 2.0, 1e-8);
    EXPECT_LT((block3(a, 0) - Vec3(0, -9.0 / 2.0, 0)).norm(), 1e-8 * 4.5);  // v^2/r towards the centre
}

// The constraint force f^ = J^T lambda, taken from the accelerations as m (a - a_unconstrained),
// is perpendicular to the velocity on a legal state: it does no work.
TEST(WireConstraint, ConstraintForceDoesNoWork) {
    double worst = 0.0;
    for (const double angle : kLegalAngles) {
        WireBead w = legalBead(angle);
        VecX a, a0;
        w.ps.accelerations(a);
        w.ps.unconstrainedAccelerations(a0);
        const Vec3 fHat = w.ps.mass(w.bead) * block3(VecX(a - a0), w.bead);
        // The same force from the solver: J^T lambda.
        VecX jtLambda = VecX::Zero(3 * w.ps.particleCount());
        w.ps.constraintSolver().multiplyJTransposed(w.ps.constraintSolver().multipliers(), jtLambda);
        EXPECT_LT((block3(jtLambda, w.bead) - fHat).norm(), 1e-12 * fHat.norm());
        ASSERT_GT(fHat.norm(), 1.0);
        worst = std::max(worst, std::abs(fHat.dot(w.ps.velocity(w.bead))) / (fHat.norm() * kLegalSpeed));
    }
    EXPECT_LT(worst, 1e-14);
    RecordProperty("constraint_power_relative", test::scientific(worst));
}

// Along a whole run the bead stays on its wire (tilted, so gravity pushes against the
// plane row too) and the energy stays what it was: the constraint force never works.
TEST(WireConstraint, BeadOnATiltedWireKeepsItsEnergy) {
    const Vec3 normal = Vec3(0.3, 0.2, 1.0).normalized();
    Vec3 u, w;
    orthonormalComplement(normal, u, w);
    World ps;
    ps.addForce(std::make_unique<Gravity>(Vec3(0, -9.81, 0)));
    const Vec3 center(0.5, 1.0, -0.2);
    ps.addParticle(center + 0.8 * u, 1.5 * w, 1.0);
    ps.addConstraint(makeConstraint(WireSpec{0, center, 0.8, normal}));
    const double e0 = ps.totalEnergy();
    RungeKutta4 rk4;
    StepReport report;
    double maxError = 0.0, maxDrift = 0.0;
    for (int k = 0; k < 5000; ++k) {
        rk4.step(ps, 1e-3, report);
        maxError = std::max(maxError, ps.constraintError());
        maxDrift = std::max(maxDrift, std::abs(ps.totalEnergy() - e0));
    }
    EXPECT_LT(maxError, 1e-8);
    EXPECT_LT(maxDrift, 1e-6 * 9.81 * 1.6);                        // relative to m g times the wire's height
    EXPECT_GT((ps.position(0) - (center + 0.8 * u)).norm(), 0.1);  // it did move
}

}  // namespace
}  // namespace tinkerbox
