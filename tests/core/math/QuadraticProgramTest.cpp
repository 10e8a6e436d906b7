// The interior-point QP solver against closed forms, and the KKT conditions on random
// sparse problems.
#include "core/math/QuadraticProgram.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>
#include <vector>

namespace tinkerbox {
namespace {

SparseMatrix sparse(const Eigen::MatrixXd& dense) { return dense.sparseView(); }

SparseMatrix noRows(Index n) { return SparseMatrix(0, n); }

VecX vector3(double a, double b, double c) { return (VecX(3) << a, b, c).finished(); }

// The optimality conditions of the header, to `tolerance` relative to the data's scale.
void expectKkt(const QuadraticProgram& qp, const QuadraticProgramResult& r, double tolerance) {
    ASSERT_TRUE(r.converged);
    const VecX& x = r.x;
    const VecX& y = r.equalityMultipliers;
    const VecX& z = r.inequalityMultipliers;
    ASSERT_EQ(x.size(), qp.H.rows());
    ASSERT_EQ(y.size(), qp.A.rows());
    ASSERT_EQ(z.size(), qp.C.rows());
    VecX stationarity = qp.H * x + qp.g;
    if (qp.A.rows() > 0) stationarity -= qp.A.transpose() * y;
    if (qp.C.rows() > 0) stationarity -= qp.C.transpose() * z;
    const double scale = 1.0 + qp.g.lpNorm<Eigen::Infinity>() + (qp.H * x).lpNorm<Eigen::Infinity>();
    EXPECT_LE(stationarity.lpNorm<Eigen::Infinity>(), tolerance * scale);
    if (qp.A.rows() > 0) {
        EXPECT_LE((qp.A * x - qp.b).lpNorm<Eigen::Infinity>(), tolerance * (1.0 + qp.b.lpNorm<Eigen::Infinity>()));
    }
    if (qp.C.rows() > 0) {
        const VecX slack = qp.C * x - qp.d;
        const double slackScale = 1.0 + qp.d.lpNorm<Eigen::Infinity>();
        EXPECT_GE(slack.minCoeff(), -tolerance * slackScale);
        EXPECT_GE(z.minCoeff(), 0.0);
        EXPECT_LE(z.cwiseProduct(slack).cwiseAbs().maxCoeff(),
                  tolerance * slackScale * (1.0 + z.lpNorm<Eigen::Infinity>()));
    }
    EXPECT_LE(r.primalResidual, 1e-9);
    EXPECT_LE(r.dualResidual, 1e-9);
    EXPECT_LE(r.complementarity, 1e-9);
}

// Without constraints the minimizer solves H x = -g.
TEST(QuadraticProgram, UnconstrainedIsTheNewtonStep) {
    Eigen::MatrixXd H(3, 3);
    H << 4, 1, 0, 1, 3, 0.5, 0, 0.5, 2;
    QuadraticProgram qp{sparse(H), VecX(3), noRows(3), VecX(), noRows(3), VecX()};
    qp.g << 1, -2, 3;
    const QuadraticProgramResult r = solveQuadraticProgram(qp);
    expectKkt(qp, r, 1e-10);
    EXPECT_LE((r.x - H.ldlt().solve(-qp.g)).norm(), 1e-12);
}

// A separable QP in a box: each x_i is -g_i / h_i clamped to [l_i, u_i]; the multiplier of
// the bound that holds it is |h_i x_i + g_i|, the other's is zero.
TEST(QuadraticProgram, BoxConstrainedSeparableIsClamped) {
    const Index n = 6;
    const VecX h = (VecX(n) << 1, 2, 0.5, 4, 1, 3).finished();
    const VecX g = (VecX(n) << -3, 1, 0.2, -2, 0.5, -9).finished();
    const VecX lower = (VecX(n) << 0, 0, -1, 0, 1, -2).finished();
    const VecX upper = (VecX(n) << 1, 2, 1, 1, 2, 2).finished();
    // Rows: x >= l, then -x >= -u.
    Eigen::MatrixXd C(2 * n, n);
    C << Eigen::MatrixXd::Identity(n, n), -Eigen::MatrixXd::Identity(n, n);
    VecX d(2 * n);
    d << lower, -upper;
    const QuadraticProgram qp{sparse(h.asDiagonal().toDenseMatrix()), g, noRows(n), VecX(), sparse(C), d};
    const QuadraticProgramResult r = solveQuadraticProgram(qp);
    expectKkt(qp, r, 1e-9);
    for (Index i = 0; i < n; ++i) {
        const double free = -g[i] / h[i];
        const double expected = std::clamp(free, lower[i], upper[i]);
        EXPECT_NEAR(r.x[i], expected, 1e-9) << i;
        const double force = h[i] * expected + g[i];  // = z_lower - z_upper
        EXPECT_NEAR(r.inequalityMultipliers[i], std::max(force, 0.0), 1e-8) << i;
        EXPECT_NEAR(r.inequalityMultipliers[n + i], std::max(-force, 0.0), 1e-8) << i;
    }
}

// The nearest point of the halfspace n.x >= c to p: p + max(0, c - n.p) n / |n|^2.
TEST(QuadraticProgram, ProjectionOntoAHalfspace) {
    const VecX normal = vector3(1, 2, -2), p = vector3(0.5, -1, 3);
    const double c = 1.0;  // n.p = -7.5: p is outside
    Eigen::MatrixXd C = normal.transpose();
    const QuadraticProgram qp{
        sparse(Eigen::MatrixXd::Identity(3, 3)), -p, noRows(3), VecX(), sparse(C), VecX::Constant(1, c)};
    const QuadraticProgramResult r = solveQuadraticProgram(qp);
    expectKkt(qp, r, 1e-10);
    const double violation = c - normal.dot(p);
    EXPECT_LE((r.x - (p + violation / normal.squaredNorm() * normal)).norm(), 1e-10);
    EXPECT_NEAR(r.inequalityMultipliers[0], violation / normal.squaredNorm(), 1e-10);

    // A point already inside is its own projection, with a zero multiplier.
    QuadraticProgram inside = qp;
    inside.g = vector3(-5, 0, 0);
    const QuadraticProgramResult rInside = solveQuadraticProgram(inside);
    expectKkt(inside, rInside, 1e-10);
    EXPECT_LE((rInside.x - vector3(5, 0, 0)).norm(), 1e-9);
    EXPECT_NEAR(rInside.inequalityMultipliers[0], 0.0, 1e-9);
}

// Projection onto the probability simplex {x >= 0, sum x = 1}: x_i = max(p_i - tau, 0) with
// tau from the sorted p (Held, Wolfe & Crowder 1974; Duchi et al. 2008, Efficient
// Projections onto the l1-Ball, figure 1).
TEST(QuadraticProgram, ProjectionOntoTheSimplex) {
    const VecX p = (VecX(7) << 0.9, -0.3, 0.6, 0.05, 1.4, -2.0, 0.3).finished();
    const Index n = p.size();
    std::vector<double> sorted(p.data(), p.data() + n);
    std::sort(sorted.rbegin(), sorted.rend());
    double sum = 0.0, tau = 0.0;
    for (Index k = 0; k < n; ++k) {
        sum += sorted[k];
        const double candidate = (sum - 1.0) / static_cast<double>(k + 1);
        if (sorted[k] - candidate > 0.0) tau = candidate;
    }
    const VecX expected = (p.array() - tau).max(0.0);
    ASSERT_NEAR(expected.sum(), 1.0, 1e-14);

    const QuadraticProgram qp{sparse(Eigen::MatrixXd::Identity(n, n)), -p,
                              sparse(Eigen::MatrixXd::Ones(1, n)),     VecX::Ones(1),
                              sparse(Eigen::MatrixXd::Identity(n, n)), VecX::Zero(n)};
    const QuadraticProgramResult r = solveQuadraticProgram(qp);
    expectKkt(qp, r, 1e-10);
    // The tolerance bounds sum z_i x_i: a zero coordinate with multiplier tau - p_i = 0.35
    // may be 3e-9 off.
    EXPECT_LE((r.x - expected).lpNorm<Eigen::Infinity>(), 1e-8);
    EXPECT_NEAR(r.equalityMultipliers[0], -tau, 1e-8);  // x - p = y 1 + z
}

// The least-norm solution of A x = b (no inequality rows) is A^T (A A^T)^-1 b.
TEST(QuadraticProgram, EqualityConstrainedLeastNorm) {
    Eigen::MatrixXd A(2, 5);
    A << 1, 0, 2, 0, -1, 0, 3, 0, 1, 1;
    const VecX b = (VecX(2) << 2, -1).finished();
    const QuadraticProgram qp{
        sparse(Eigen::MatrixXd::Identity(5, 5)), VecX::Zero(5), sparse(A), b, SparseMatrix(), VecX()};
    const QuadraticProgramResult r = solveQuadraticProgram(qp);
    expectKkt(qp, r, 1e-10);
    const VecX leastNorm = A.transpose() * (A * A.transpose()).ldlt().solve(b);
    EXPECT_LE((r.x - leastNorm).norm(), 1e-10);
    EXPECT_EQ(r.inequalityMultipliers.size(), 0);
}

// A ball dropped on the ground, as an impulse QP: variables the velocity after, v, and the
// normal impulse p; minimize 1/2 m |v|^2 subject to m (v - v0) = n p, n.v >= -e n.v0, p >= 0.
// H is only semi-definite (zero on p). The answer is Newton's restitution law:
// n.v = -e n.v0 and p = m (1 + e) |n.v0|, the tangential velocity unchanged.
TEST(QuadraticProgram, ImpulseOfARestitutionContact) {
    const double m = 2.0, e = 0.5;
    const VecX n = vector3(0, 0, 1), v0 = vector3(1.5, -0.5, -4.0);
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(4, 4);
    H.topLeftCorner(3, 3) = m * Eigen::Matrix3d::Identity();
    Eigen::MatrixXd A(3, 4);
    A << m * Eigen::Matrix3d::Identity(), -n;
    Eigen::MatrixXd C = Eigen::MatrixXd::Zero(2, 4);
    C.row(0).head(3) = n.transpose();
    C(1, 3) = 1.0;
    const QuadraticProgram qp{sparse(H), VecX::Zero(4), sparse(A),
                              m * v0,    sparse(C),     (VecX(2) << -e * n.dot(v0), 0.0).finished()};
    const QuadraticProgramResult r = solveQuadraticProgram(qp);
    expectKkt(qp, r, 1e-9);
    EXPECT_LE((r.x.head(3) - vector3(1.5, -0.5, 2.0)).norm(), 1e-8);
    EXPECT_NEAR(r.x[3], m * (1.0 + e) * 4.0, 1e-8);
}

// A random sparse convex QP with a known feasible point x0: H = B^T B + 0.1 I, A x0 = b,
// C x0 >= d with a third of the rows tight at x0.
QuadraticProgram randomQp(std::mt19937& rng, Index n, Index mEq, Index mIn, double density) {
    std::uniform_real_distribution<double> uniform(-1.0, 1.0), coin(0.0, 1.0);
    auto randomSparse = [&](Index rows, Index cols) {
        std::vector<Eigen::Triplet<double>> t;
        for (Index i = 0; i < rows; ++i) {
            t.emplace_back(i, static_cast<Index>(coin(rng) * static_cast<double>(cols)) % cols, uniform(rng));
            for (Index j = 0; j < cols; ++j)
                if (coin(rng) < density) t.emplace_back(i, j, uniform(rng));
        }
        SparseMatrix M(rows, cols);
        M.setFromTriplets(t.begin(), t.end());
        return M;
    };
    const SparseMatrix B = randomSparse(n, n);
    SparseMatrix identity(n, n);
    identity.setIdentity();
    QuadraticProgram qp;
    qp.H = SparseMatrix(B.transpose() * B) + 0.1 * identity;
    qp.g = VecX::NullaryExpr(n, [&] { return 3.0 * uniform(rng); });
    const VecX x0 = VecX::NullaryExpr(n, [&] { return uniform(rng); });
    qp.A = randomSparse(mEq, n);
    qp.b = qp.A * x0;
    qp.C = randomSparse(mIn, n);
    qp.d = qp.C * x0;
    for (Index i = 0; i < mIn; ++i)
        if (i % 3 != 0) qp.d[i] -= coin(rng);
    return qp;
}

TEST(QuadraticProgram, RandomSparseProblemsMeetTheKktConditions) {
    std::mt19937 rng(20261125);
    const Index sizes[][3] = {{10, 3, 15}, {40, 10, 60}, {120, 20, 200}, {300, 0, 400}, {200, 50, 0}};
    for (int trial = 0; trial < 4; ++trial)
        for (const auto& size : sizes) {
            const QuadraticProgram qp = randomQp(rng, size[0], size[1], size[2], 0.05);
            const QuadraticProgramResult r = solveQuadraticProgram(qp);
            SCOPED_TRACE("n " + std::to_string(size[0]) + ", trial " + std::to_string(trial));
            expectKkt(qp, r, 1e-8);
            EXPECT_LT(r.iterations, 40);
        }
}

// The impulse QP of a side x side wall of unit boxes (bricks offset by half a box every other
// row) on the ground: variables the 6 velocities of each box, then per contact the normal impulse
// p and the tangential impulse t; rows v_n+ >= 0, p >= 0 and the 8 faces of the friction
// pyramid mu p - d_k . t >= 0. Its contacts are statically indeterminate (the impulses are
// not unique) and the multipliers span many orders of magnitude near the end.
QuadraticProgram brickWallImpulses(int side) {
    std::vector<Vec3> centers;
    for (int r = 0; r < side; ++r)
        for (int c = 0; c < side; ++c) centers.emplace_back(c + 0.5 * (r % 2), 0.5 + r, 0.0);
    struct Touch {
        Index above, below;  // below -1: the ground
        Vec3 point;
    };
    std::vector<Touch> touches;
    for (Index k = 0; k < side * side; ++k)
        for (const double dx : {-0.45, 0.45})
            for (const double dz : {-0.45, 0.45}) {
                const Vec3 p = centers[k] + Vec3(dx, -0.5, dz);
                const Index row = k / side;
                if (row == 0) touches.push_back({k, -1, p});
                for (Index j = (row - 1) * side; row > 0 && j < row * side; ++j)
                    if (std::abs(p.x() - centers[j].x()) < 0.5) touches.push_back({k, j, p});
            }
    const Index nv = 6 * side * side, contacts = static_cast<Index>(touches.size()), n = nv + 3 * contacts;
    const double inertia = 1.0 / 6.0, mu = 0.5;
    std::vector<Eigen::Triplet<double>> H, A, C;
    VecX b(nv);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> noise(-0.01, 0.01);
    for (Index i = 0; i < nv; ++i) {  // falling at g h with h = 1/60, and a little noise
        const double m = i % 6 < 3 ? 1.0 : inertia;
        H.emplace_back(i, i, m);
        A.emplace_back(i, i, m);  // M (v+ - v-) = sum of J^T impulses
        b[i] = m * (noise(rng) - (i % 6 == 1 ? 9.81 / 60.0 : 0.0));
    }
    const Vec3 directions[3] = {Vec3::UnitY(), Vec3::UnitX(), Vec3::UnitZ()};  // of p and t
    for (Index c = 0; c < contacts; ++c) {
        const Index impulse = nv + 3 * c, row = 10 * c;
        for (const auto& [body, sign] : {std::pair{touches[c].above, 1.0}, std::pair{touches[c].below, -1.0}}) {
            if (body < 0) continue;
            const Vec3 r = touches[c].point - centers[body];
            for (int k = 0; k < 3; ++k) {
                const Vec3 f = sign * directions[k], torque = r.cross(f);
                for (int i = 0; i < 3; ++i) {
                    A.emplace_back(6 * body + i, impulse + k, -f[i]);
                    A.emplace_back(6 * body + 3 + i, impulse + k, -torque[i]);
                }
            }
            const Vec3 rn = r.cross(directions[0]);
            for (int i = 0; i < 3; ++i) {
                C.emplace_back(row, 6 * body + i, sign * directions[0][i]);
                C.emplace_back(row, 6 * body + 3 + i, sign * rn[i]);
            }
        }
        C.emplace_back(row + 1, impulse, 1.0);
        for (int k = 0; k < 8; ++k) {
            const double angle = k * std::numbers::pi / 4;
            C.emplace_back(row + 2 + k, impulse, mu);
            C.emplace_back(row + 2 + k, impulse + 1, -std::cos(angle));
            C.emplace_back(row + 2 + k, impulse + 2, -std::sin(angle));
        }
    }
    QuadraticProgram qp{SparseMatrix(n, n),       VecX::Zero(n), SparseMatrix(nv, n), b, SparseMatrix(10 * contacts, n),
                        VecX::Zero(10 * contacts)};
    qp.H.setFromTriplets(H.begin(), H.end());
    qp.A.setFromTriplets(A.begin(), A.end());
    qp.C.setFromTriplets(C.begin(), C.end());
    return qp;
}

TEST(QuadraticProgram, ContactImpulsesOfBrickWalls) {
    for (int side = 3; side <= 6; ++side) {
        SCOPED_TRACE("side " + std::to_string(side));
        const QuadraticProgram qp = brickWallImpulses(side);
        const QuadraticProgramResult r = solveQuadraticProgram(qp);
        expectKkt(qp, r, 1e-8);
        EXPECT_LT(r.iterations, 40);
    }
}

// Degenerate data: a duplicated inequality row, an equality row that is the sum of two
// others (the multipliers are then not unique), and a bound active at the unconstrained
// minimizer (a zero multiplier on an active row, strict complementarity fails).
// min 1/2 |x - (1, 2, 0)|^2, x0 + x1 >= 4 (twice), x0 <= 1, and x2 = x0 - x1 + 1, x1 = 3 plus
// their sum: both inequalities hold x0 = 1, so their multipliers are not unique either.
TEST(QuadraticProgram, DegenerateRowsAreSolved) {
    Eigen::MatrixXd A(3, 3);
    A << 1, -1, -1,  // x0 - x1 - x2 = -1
        0, 1, 0,     // x1 = 3
        1, 0, -1;    // the sum of the two: x0 - x2 = 2
    const VecX b = (VecX(3) << -1, 3, 2).finished();
    Eigen::MatrixXd C(3, 3);
    C << 1, 1, 0, 1, 1, 0, -1, 0, 0;
    const VecX d = (VecX(3) << 4, 4, -1).finished();
    const QuadraticProgram qp{sparse(Eigen::MatrixXd::Identity(3, 3)), vector3(-1, -2, 0), sparse(A), b, sparse(C), d};
    const QuadraticProgramResult r = solveQuadraticProgram(qp);
    expectKkt(qp, r, 1e-9);
    // x1 = 3; x0 <= 1 and x0 + x1 >= 4 force x0 = 1; x2 = x0 - 2 = -1.
    EXPECT_LE((r.x - vector3(1, 3, -1)).norm(), 1e-8);

    // A bound that touches the unconstrained minimizer: x <= 1 at min 1/2 (x - 1)^2. Without
    // strict complementarity x z <= tolerance leaves x and z both about sqrt(tolerance) off.
    const QuadraticProgram touching{sparse(Eigen::MatrixXd::Identity(1, 1)),  -VecX::Ones(1), noRows(1), VecX(),
                                    sparse(-Eigen::MatrixXd::Identity(1, 1)), -VecX::Ones(1)};
    const double tolerance = 1e-14;
    const QuadraticProgramResult rTouching = solveQuadraticProgram(touching, {tolerance, 100});
    expectKkt(touching, rTouching, 1e-9);
    EXPECT_LE(rTouching.complementarity, tolerance);
    EXPECT_NEAR(rTouching.x[0], 1.0, 2.0 * std::sqrt(tolerance));
    EXPECT_NEAR(rTouching.inequalityMultipliers[0], 0.0, 2.0 * std::sqrt(tolerance));
}

// x >= 1 and x <= 0 have no solution; nor have x0 + x1 = 1, x0 + x1 = 2. The result says so,
// with finite numbers and before the iteration limit for the inequalities (where the
// multipliers give a Farkas certificate).
TEST(QuadraticProgram, InfeasibleProblemsDoNotConverge) {
    Eigen::MatrixXd C(2, 2);
    C << 1, 0, -1, 0;
    const QuadraticProgram crossed{sparse(Eigen::MatrixXd::Identity(2, 2)),
                                   VecX::Zero(2),
                                   noRows(2),
                                   VecX(),
                                   sparse(C),
                                   (VecX(2) << 1, 0).finished()};
    const QuadraticProgramResult r = solveQuadraticProgram(crossed);
    EXPECT_FALSE(r.converged);
    EXPECT_LT(r.iterations, QuadraticProgramSettings{}.maxIterations);
    EXPECT_TRUE(r.x.allFinite() && r.inequalityMultipliers.allFinite());
    EXPECT_GT(r.primalResidual, 0.1);

    Eigen::MatrixXd A(2, 2);
    A << 1, 1, 1, 1;
    const QuadraticProgram inconsistent{sparse(Eigen::MatrixXd::Identity(2, 2)),
                                        VecX::Zero(2),
                                        sparse(A),
                                        (VecX(2) << 1, 2).finished(),
                                        noRows(2),
                                        VecX()};
    const QuadraticProgramResult rEq = solveQuadraticProgram(inconsistent);
    EXPECT_FALSE(rEq.converged);
    EXPECT_TRUE(rEq.x.allFinite() && rEq.equalityMultipliers.allFinite());
    EXPECT_GT(rEq.primalResidual, 0.1);
}

// Data with a NaN have no answer: the result says so with finite numbers, not NaN.
TEST(QuadraticProgram, NonFiniteDataDoNotConverge) {
    QuadraticProgram qp{sparse(Eigen::MatrixXd::Identity(2, 2)), VecX::Zero(2), noRows(2), VecX(),
                        sparse(Eigen::MatrixXd::Identity(2, 2)), VecX::Zero(2)};
    qp.g[1] = std::numeric_limits<double>::quiet_NaN();
    const QuadraticProgramResult r = solveQuadraticProgram(qp);
    EXPECT_FALSE(r.converged);
    EXPECT_TRUE(r.x.allFinite() && r.inequalityMultipliers.allFinite());
    EXPECT_FALSE(std::isnan(r.primalResidual) || std::isnan(r.dualResidual) || std::isnan(r.complementarity));
}

// Finite data whose products overflow (a body at 1e47 m/s under the contact model oba): the
// refinement's first miss is not finite. The result says no, with x, y, z of the program's
// sizes and finite (it once returned vectors of no entries, read out of bounds).
TEST(QuadraticProgram, DataNearOverflowDoNotConvergeAndKeepTheirSizes) {
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(2, 2);
    H(0, 0) = 1.3e174;
    H(1, 1) = 1.0;
    Eigen::MatrixXd C(1, 2);
    C << 1.0, 1e100;
    const QuadraticProgram qp{sparse(H), (VecX(2) << 0.0, -7e142).finished(), noRows(2), VecX(),
                              sparse(C), (VecX(1) << 1e150).finished()};
    const QuadraticProgramResult r = solveQuadraticProgram(qp);
    EXPECT_FALSE(r.converged);
    ASSERT_EQ(r.x.size(), 2);
    ASSERT_EQ(r.inequalityMultipliers.size(), 1);
    EXPECT_TRUE(r.x.allFinite() && r.inequalityMultipliers.allFinite());
}

TEST(QuadraticProgram, MismatchedSizesThrowAndSayWhich) {
    const QuadraticProgram good{
        sparse(Eigen::MatrixXd::Identity(2, 2)), VecX::Zero(2), noRows(2), VecX(), noRows(2), VecX()};
    auto message = [](const QuadraticProgram& qp) {
        try {
            solveQuadraticProgram(qp);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("no exception");
    };
    QuadraticProgram badG = good;
    badG.g = VecX::Zero(3);
    EXPECT_NE(message(badG).find("g has 3"), std::string::npos) << message(badG);
    QuadraticProgram badH = good;
    badH.H = SparseMatrix(2, 3);
    EXPECT_NE(message(badH).find("H is 2 x 3"), std::string::npos) << message(badH);
    QuadraticProgram badB = good;
    badB.A = sparse(Eigen::MatrixXd::Ones(1, 2));
    EXPECT_NE(message(badB).find("b has 0"), std::string::npos) << message(badB);
    QuadraticProgram badC = good;
    badC.C = sparse(Eigen::MatrixXd::Ones(1, 3));
    badC.d = VecX::Zero(1);
    EXPECT_NE(message(badC).find("C has 3 columns"), std::string::npos) << message(badC);
    EXPECT_EQ(message(good), "no exception");
}

}  // namespace
}  // namespace tinkerbox
