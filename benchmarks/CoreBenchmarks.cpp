// Micro-benchmarks of the kernels behind an implicit cloth step, and of contact detection
// in a pile of boxes. The cloth's print a hash of the state they produced (Jolt-style), so
// that a speed change that also changes the result shows up.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <numbers>
#include <random>

#include "core/collision/ContactDetector.h"
#include "core/collision/SortAndSweep.h"
#include "core/integrators/Integrator.h"
#include "core/math/QuadraticProgram.h"
#include "core/math/SgsConjugateGradient.h"
#include "core/math/TwoWayParallel.h"
#include "scene/BenchmarkScenes.h"
#include "scene/SceneBuilder.h"

namespace {

using namespace tinkerbox;

// The cloth of tinkerbox-sim bench, at the default solver settings.
std::unique_ptr<Simulation> cloth(int n, const std::string& integrator) {
    Scene s = makeBenchmarkScene("cloth-" + std::to_string(n));
    s.settings.integrator = integrator;
    return buildSimulation(s);
}

std::size_t hashState(const World& system) {
    std::size_t h = 0;
    for (Index i = 0; i < system.positions().size(); ++i) {
        std::uint64_t bits;
        const double v = system.positions()[i];
        std::memcpy(&bits, &v, sizeof bits);
        h = h * 1099511628211ull ^ std::hash<std::uint64_t>{}(bits);
    }
    return h;
}

void BM_SpringForces(benchmark::State& state) {
    auto sim = cloth(static_cast<int>(state.range(0)), "rk4");
    VecX f;
    for (auto _ : state) {
        sim->world().appliedForces(f);
        benchmark::DoNotOptimize(f.data());
    }
    state.counters["springs"] = static_cast<double>(sim->world().springs().size());
}
BENCHMARK(BM_SpringForces)->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

void BM_ForceJacobians(benchmark::State& state) {
    auto sim = cloth(static_cast<int>(state.range(0)), "implicit-euler");
    BlockSparseMatrix J;
    VecX dFdxV;
    for (auto _ : state) {
        sim->world().combinedJacobian(-1.0, -0.1, J, dFdxV);
        benchmark::DoNotOptimize(&J.value(0));
    }
}
BENCHMARK(BM_ForceJacobians)->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

void BM_BlockMultiply(benchmark::State& state) {
    auto sim = cloth(static_cast<int>(state.range(0)), "implicit-euler");
    BlockSparseMatrix dFdx, dFdv;
    sim->world().forceJacobians(JacobianForm::Definite, dFdx, dFdv);
    const VecX x = VecX::Random(sim->world().velocityDimension());
    VecX y;
    for (auto _ : state) {
        dFdx.multiply(x, y);
        benchmark::DoNotOptimize(y.data());
    }
    state.counters["blocks"] = static_cast<double>(dFdx.storedBlocks());
}
BENCHMARK(BM_BlockMultiply)->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);



void BM_ClothStep(benchmark::State& state, const std::string& integrator) {
    auto sim = cloth(static_cast<int>(state.range(0)), integrator);
    long cg = 0, steps = 0;
    for (auto _ : state) {
        const FrameReport r = sim->step();
        cg += r.integrator.linearSolve.iterations;
        ++steps;
    }
    state.counters["cg_iterations"] = static_cast<double>(cg) / static_cast<double>(steps);
    state.counters["state_hash"] = static_cast<double>(hashState(sim->world()) % 1000000);
}
BENCHMARK_CAPTURE(BM_ClothStep, implicit, std::string("implicit-euler"))->Arg(64)->Arg(128)->Unit(benchmark::kMillisecond);

void BM_SgsSolve(benchmark::State& state) {
    auto sim = cloth(static_cast<int>(state.range(0)), "implicit-euler");
    for (int i = 0; i < 10; ++i) sim->step();  // a moving cloth
    const double h = 1.0 / 60.0;
    std::vector<Mat3> mass;
    std::vector<char> fixed;
    sim->world().massBlocks(mass, fixed);
    VecX f, dFdxV;
    sim->world().appliedForces(f);
    const VecX rhs = h * f;
    BlockSparseMatrix jacobian, J;
    sim->world().combinedJacobian(-h * h, -h, jacobian, dFdxV);
    SgsConjugateGradient solver;
    long iterations = 0, solves = 0;
    for (auto _ : state) {
        state.PauseTiming();
        J = jacobian;  // the solver scales its matrix in place
        state.ResumeTiming();
        VecX x = VecX::Zero(rhs.size());
        iterations += solver.solve(J, mass, fixed, rhs, x, CgSettings{1e-4, 1000}).iterations;
        ++solves;
    }
    state.counters["cg_iterations"] = static_cast<double>(iterations) / static_cast<double>(solves);
}
BENCHMARK(BM_SgsSolve)->Arg(64)->Arg(128)->Unit(benchmark::kMillisecond);

// CG's matrix-vector product in the implicit cloth step (SgsConjugateGradient: two sweeps over
// the scaled matrix), as bytes streamed per second, to compare with BM_Triad below. The 32 x 32
// cloth is swept on one core, the bigger ones in two halves at once.
void BM_CgProduct(benchmark::State& state) {
    auto sim = cloth(static_cast<int>(state.range(0)), "implicit-euler");
    for (int i = 0; i < 10; ++i) sim->step();
    const double h = 1.0 / 60.0;
    std::vector<Mat3> mass;
    std::vector<char> fixed;
    sim->world().massBlocks(mass, fixed);
    BlockSparseMatrix J;
    VecX dFdxV;
    sim->world().combinedJacobian(-h * h, -h, J, dFdxV);
    SgsConjugateGradient solver;
    solver.prepare(J, mass, fixed);
    const VecX v = VecX::Random(3 * J.blockRows());
    VecX out;
    for (auto _ : state) {
        solver.applyPreconditioned(v, out);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * solver.bytesPerProduct()));
    state.counters["rows"] = static_cast<double>(J.blockRows());
}
BENCHMARK(BM_CgProduct)->Arg(32)->Arg(64)->Arg(128)->UseRealTime()->Unit(benchmark::kMicrosecond);

// STREAM's triad (McCalpin 1995), a = b + s c, over 3 x 64 MB (far beyond the caches) on one
// core or split in halves over two (TwoWayParallel, as the big CG products are): the
// machine's memory bandwidth, counted as STREAM counts it, 24 bytes per element.
void BM_Triad(benchmark::State& state) {
    const Index n = Index(1) << 23;
    VecX a = VecX::Zero(n), b = VecX::Random(n), c = VecX::Random(n);
    const double s = 3.0;
    TwoWayParallel parallel;
    const auto triad = [&](Index first, Index last) {
        a.segment(first, last - first) = b.segment(first, last - first) + s * c.segment(first, last - first);
    };
    for (auto _ : state) {
        if (state.range(0) == 1) triad(0, n);
        else parallel.run([&] { triad(0, n / 2); }, [&] { triad(n / 2, n); });
        benchmark::DoNotOptimize(a.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * 3 * n * sizeof(double)));
}
BENCHMARK(BM_Triad)->Arg(1)->Arg(2)->ArgName("cores")->UseRealTime()->Unit(benchmark::kMillisecond);

// A pyramid of unit boxes on the ground, `base` of them in the lowest row, each row offset
// by half a box and touching the one below: base (base + 1) / 2 boxes.
World boxPyramid(int base, bool planar) {
    World world;
    world.setPlanar(planar);
    world.addPlane(Plane{});
    for (int row = 0; row < base; ++row)
        for (int i = 0; i < base - row; ++i) {
            RigidBodySpec box;
            box.position = Vec3(i + 0.5 * row - 0.5 * (base - 1), 0.5 + row, 0.0);
            world.addRigidBody(box);
        }
    return world;
}

constexpr double kContactMargin = 0.02;

// The broad phase alone over the pyramid's bounding boxes, as the detector makes them.
void BM_BroadPhase(benchmark::State& state) {
    const World world = boxPyramid(static_cast<int>(state.range(0)), true);
    std::vector<Aabb> boxes;
    for (Index k = 0; k < world.rigidBodyCount(); ++k) {
        const Vec3 x = world.rigidBodies().position(k), half = Vec3::Constant(0.5 + kContactMargin);
        boxes.push_back({x - half, x + half});
    }
    SortAndSweep broadPhase;
    std::vector<SortAndSweep::Pair> pairs;
    for (auto _ : state) {
        broadPhase.update(boxes, pairs);
        benchmark::DoNotOptimize(pairs.data());
    }
    state.counters["boxes"] = static_cast<double>(boxes.size());
    state.counters["pairs"] = static_cast<double>(pairs.size());
}
BENCHMARK(BM_BroadPhase)->Arg(20)->Arg(100)->Unit(benchmark::kMicrosecond);

void BM_ContactDetection(benchmark::State& state, bool planar) {
    const World world = boxPyramid(static_cast<int>(state.range(0)), planar);
    ContactDetector detector;
    std::vector<ContactManifold> manifolds;
    for (auto _ : state) {
        detector.detect(world, kContactMargin, manifolds);
        benchmark::DoNotOptimize(manifolds.data());
    }
    state.counters["bodies"] = static_cast<double>(world.rigidBodyCount());
    state.counters["manifolds"] = static_cast<double>(manifolds.size());
}
BENCHMARK_CAPTURE(BM_ContactDetection, planar, true)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ContactDetection, spatial, false)->Arg(20)->Unit(benchmark::kMicrosecond);

// An impulse QP of optimization-based contact (Schmidl's formulation: minimize the kinetic
// energy after the impulses, subject to the momentum equations, restitution rows and a
// friction pyramid), for unit boxes (mass 1) in `rows` rows of `columns` in one plane, each
// row offset by half a box (a wall of bricks) when there are several columns, falling at
// g h with a little noise. Each box touches what is below it at up to 4 points of its bottom
// face. With `directionImpulses` a contact has 9 impulse variables (normal p >= 0 and 8
// friction directions q_k >= 0, at 45 degrees in the tangent plane), rows v_n+ >= 0
// (restitution 0), p >= 0, q >= 0 and mu p - sum q >= 0 (a Stewart & Trinkle 1996
// polyhedral cone); without, 3 (p and the tangential impulse t), rows v_n+ >= 0, p >= 0 and
// the 8 faces of the pyramid mu p - d_k . t >= 0. Variables: the 6 velocities of each box,
// then the impulses.
QuadraticProgram brickImpulseQp(int rows, int columns, bool directionImpulses) {
    std::vector<Vec3> centers;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c) centers.emplace_back(c + (columns > 1 && r % 2 ? 0.5 : 0.0), 0.5 + r, 0.0);
    struct Touch {
        Index above, below;  // below -1: the ground
        Vec3 point;
    };
    std::vector<Touch> touches;
    for (Index k = 0; k < static_cast<Index>(centers.size()); ++k) {
        const Index row = k / columns;
        for (const double dx : {-0.45, 0.45})
            for (const double dz : {-0.45, 0.45}) {
                const Vec3 p = centers[k] + Vec3(dx, -0.5, dz);
                if (row == 0) touches.push_back({k, -1, p});
                for (Index j = (row - 1) * columns; row > 0 && j < row * columns; ++j)
                    if (std::abs(p.x() - centers[j].x()) < 0.5) touches.push_back({k, j, p});
            }
    }
    const Index bodies = static_cast<Index>(centers.size()), contacts = static_cast<Index>(touches.size());
    const int perContact = directionImpulses ? 9 : 3, rowsPerContact = directionImpulses ? 11 : 10;
    const Index nv = 6 * bodies, n = nv + perContact * contacts;
    const double mass = 1.0, inertia = mass / 6.0, mu = 0.5, h = 1.0 / 60.0;
    std::vector<Eigen::Triplet<double>> H, A, C;
    QuadraticProgram qp;
    qp.b.resize(nv);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> noise(-0.01, 0.01);
    for (Index i = 0; i < nv; ++i) {
        const double m = i % 6 < 3 ? mass : inertia;
        H.emplace_back(i, i, m);
        A.emplace_back(i, i, m);  // M (v+ - v-) = sum of J^T impulses
        qp.b[i] = m * (noise(rng) - (i % 6 == 1 ? 9.81 * h : 0.0));
    }
    const Vec3 normal(0, 1, 0);
    std::vector<Vec3> pyramid;  // the 8 tangent directions
    for (int k = 0; k < 8; ++k) pyramid.push_back(Vec3(std::cos(k * std::numbers::pi / 4), 0.0, std::sin(k * std::numbers::pi / 4)));
    std::vector<Vec3> directions{normal};  // of the impulse variables
    if (directionImpulses) directions.insert(directions.end(), pyramid.begin(), pyramid.end());
    else directions.insert(directions.end(), {Vec3::UnitX(), Vec3::UnitZ()});
    for (Index c = 0; c < contacts; ++c) {
        const Index impulse = nv + perContact * c, row = rowsPerContact * c;
        auto couple = [&](Index body, double sign) {
            const Vec3 r = touches[c].point - centers[body], rn = r.cross(normal);
            for (int k = 0; k < perContact; ++k) {
                const Vec3 f = sign * directions[k], torque = r.cross(f);
                for (int i = 0; i < 3; ++i) {
                    A.emplace_back(6 * body + i, impulse + k, -f[i]);
                    A.emplace_back(6 * body + 3 + i, impulse + k, -torque[i]);
                }
            }
            for (int i = 0; i < 3; ++i) {  // n . (v + w x r)
                C.emplace_back(row, 6 * body + i, sign * normal[i]);
                C.emplace_back(row, 6 * body + 3 + i, sign * rn[i]);
            }
        };
        couple(touches[c].above, 1.0);
        if (touches[c].below >= 0) couple(touches[c].below, -1.0);
        if (directionImpulses) {
            for (int k = 0; k < 9; ++k) C.emplace_back(row + 1 + k, impulse + k, 1.0);
            C.emplace_back(row + 10, impulse, mu);
            for (int k = 1; k < 9; ++k) C.emplace_back(row + 10, impulse + k, -1.0);
        } else {
            C.emplace_back(row + 1, impulse, 1.0);
            for (int k = 0; k < 8; ++k) {
                C.emplace_back(row + 2 + k, impulse, mu);
                C.emplace_back(row + 2 + k, impulse + 1, -pyramid[k].x());
                C.emplace_back(row + 2 + k, impulse + 2, -pyramid[k].z());
            }
        }
    }
    qp.H.resize(n, n);
    qp.H.setFromTriplets(H.begin(), H.end());
    qp.g = VecX::Zero(n);
    qp.A.resize(nv, n);
    qp.A.setFromTriplets(A.begin(), A.end());
    qp.C.resize(rowsPerContact * contacts, n);
    qp.C.setFromTriplets(C.begin(), C.end());
    qp.d = VecX::Zero(rowsPerContact * contacts);
    return qp;
}

// A stack of 10 boxes (40 contacts) and a wall of 10 x 10 (about 400 contacts).
void BM_ContactImpulseQp(benchmark::State& state, bool directionImpulses) {
    const QuadraticProgram qp = brickImpulseQp(10, static_cast<int>(state.range(0)), directionImpulses);
    QuadraticProgramResult result;
    for (auto _ : state) {
        result = solveQuadraticProgram(qp);
        benchmark::DoNotOptimize(result.x.data());
    }
    state.counters["variables"] = static_cast<double>(qp.H.rows());
    state.counters["inequalities"] = static_cast<double>(qp.C.rows());
    state.counters["iterations"] = result.iterations;
    state.counters["converged"] = result.converged;
}
BENCHMARK_CAPTURE(BM_ContactImpulseQp, directions, true)->Arg(1)->Arg(10)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ContactImpulseQp, pyramid, false)->Arg(1)->Arg(10)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
