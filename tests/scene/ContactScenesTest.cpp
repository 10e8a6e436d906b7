// The shipped contact scenes start where they say: bodies resting face to face on what
// carries them, touching where they should touch and nowhere else.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "Examples.h"
#include "core/TestSystems.h"
#include "core/contact/ObaContact.h"
#include "scene/BenchmarkScenes.h"
#include "scene/ExampleScenes.h"
#include "scene/SceneBuilder.h"

namespace tinkerbox {
namespace {

using test::example;

// The signed distance from the plane through `point` with unit normal n to the lowest
// point of the body along n: for a box, its centre's distance less the half edges
// projected on n; for a sphere, less the radius.
double clearance(const RigidBodySpec& body, const Vec3& point, const Vec3& n) {
    double reach = 0.0;
    if (const auto* box = std::get_if<BoxShape>(&body.shape)) {
        const Mat3 r = body.orientation.toRotationMatrix();
        for (int k = 0; k < 3; ++k) reach += 0.5 * box->size[k] * std::abs(r.col(k).dot(n));
    } else {
        reach = std::get<SphereShape>(body.shape).radius;
    }
    return (body.position - point).dot(n) - reach;
}

// The top face of a fixed box as a plane: a point on it and its normal.
std::pair<Vec3, Vec3> topFace(const RigidBodySpec& box) {
    const Vec3 up = box.orientation * Vec3::UnitY();
    return {box.position + 0.5 * std::get<BoxShape>(box.shape).size.y() * up, up};
}

TEST(ContactScenes, StacksAndPyramidsRestFaceToFaceOnTheGround) {
    const Scene stack = example("box-stack");
    ASSERT_EQ(stack.bodies.size(), 10u);
    ASSERT_EQ(stack.planes.size(), 1u);
    EXPECT_EQ(clearance(stack.bodies[0], stack.planes[0].point, stack.planes[0].normal), 0.0);
    for (std::size_t i = 1; i < stack.bodies.size(); ++i)  // each one's bottom on the top of the one below
        EXPECT_EQ(clearance(stack.bodies[i], stack.bodies[i - 1].position + 0.5 * Vec3::UnitY(), Vec3::UnitY()), 0.0)
            << i;

    for (const auto& [scene, base] :
         {std::pair{example("pyramid"), 20}, std::pair{makeBenchmarkScene("large-pyramid-100"), 100}}) {
        ASSERT_EQ(scene.bodies.size(), static_cast<std::size_t>(base * (base + 1) / 2));
        std::size_t first = 0;  // of the row
        for (int row = 0; row < base; ++row) {
            const int count = base - row;
            for (int i = 0; i < count; ++i) {
                const RigidBodySpec& box = scene.bodies[first + i];
                EXPECT_EQ(box.position.y(), 0.5 + row);  // on the ground or on the row below
                if (i > 0) {
                    EXPECT_NEAR(box.position.x() - scene.bodies[first + i - 1].position.x(), 1.05, 1e-12);
                }
                if (row > 0) {  // over the gap between the two boxes below it, half a pitch from each
                    const RigidBodySpec& below = scene.bodies[first - (count + 1) + i];
                    EXPECT_NEAR(box.position.x() - below.position.x(), 0.525, 1e-12);
                }
            }
            first += static_cast<std::size_t>(count);
        }
    }
    EXPECT_FALSE(example("pyramid").settings.planar);
    EXPECT_TRUE(makeBenchmarkScene("large-pyramid-100").settings.planar);
    EXPECT_EQ(makeBenchmarkScene("stack-10").bodies, stack.bodies);
}

// The first domino stands on its front bottom edge, turned 15 degrees: past the angle
// atan(thickness / height) at which its centre of mass passes over that edge, so it falls.
TEST(ContactScenes, TheFirstDominoLeansOnItsFrontEdgePastTippingOver) {
    const Scene s = example("dominoes");
    ASSERT_EQ(s.bodies.size(), 15u);
    const Plane& ground = s.planes.at(0);
    for (const RigidBodySpec& d : s.bodies) EXPECT_NEAR(clearance(d, ground.point, ground.normal), 0.0, 1e-15);
    const RigidBodySpec& first = s.bodies[0];
    const Vec3 size = std::get<BoxShape>(first.shape).size;
    EXPECT_NEAR(Eigen::AngleAxisd(first.orientation).angle(), 15.0 * std::numbers::pi / 180.0, 1e-12);
    const Vec3 frontEdge(0.5 * size.x(), 0.0, 0.0);
    EXPECT_GT(first.position.x(), frontEdge.x());
    EXPECT_GT(15.0 * std::numbers::pi / 180.0, std::atan(size.x() / size.y()));
    // Its top reaches the next one only after falling further: it does not start in contact.
    const Vec3 topFront = first.position + first.orientation * Vec3(0.5 * size.x(), 0.5 * size.y(), 0.0);
    EXPECT_LT(topFront.x(), s.bodies[1].position.x() - 0.5 * size.x());
}

// Five balls of radius 0.1 touching in a row (centres 0.2 apart), each on two rods of
// one length from the beam, elastic and frictionless; the first turned 40 degrees about
// its rods' line.
TEST(ContactScenes, NewtonsCradleBallsTouchAndHangOnEqualRods) {
    const Scene s = example("newtons-cradle");
    ASSERT_EQ(s.bodies.size(), 6u);  // the beam and five balls
    ASSERT_EQ(s.constraints.size(), 10u);
    EXPECT_TRUE(s.bodies[0].fixed);
    for (std::size_t k = 1; k <= 5; ++k) {
        EXPECT_EQ(std::get<SphereShape>(s.bodies[k].shape).radius, 0.1);
        EXPECT_EQ(s.bodies[k].restitution, 1.0);
        EXPECT_EQ(s.bodies[k].friction, 0.0);
    }
    for (std::size_t k = 3; k <= 5; ++k)
        EXPECT_NEAR((s.bodies[k].position - s.bodies[k - 1].position).norm(), 0.2, 1e-15);
    const double rod = std::get<RodSpec>(s.constraints[0]).length;
    for (const ConstraintSpec& c : s.constraints) EXPECT_NEAR(std::get<RodSpec>(c).length, rod, 1e-15);
    // The pulled ball: 40 degrees about the horizontal line 1 m above the row.
    const Vec3 offset = s.bodies[1].position - Vec3(-0.4, 1.0, 0.0);
    EXPECT_NEAR(std::atan2(-offset.x(), -offset.y()), 40.0 * std::numbers::pi / 180.0, 1e-12);
    const auto sim = buildSimulation(s);
    EXPECT_LT(sim->constraintError(), 1e-12);  // every rod at its length
}

// Coulomb: a box sliding at v on friction mu stops after v^2 / (2 mu g); one on a slope at
// angle theta stays when mu >= tan theta.
TEST(ContactScenes, SlidingBoxAndInclineRestOnTheirSurfacesWithTheirFriction) {
    const Scene sliding = example("sliding-box");
    ASSERT_EQ(sliding.bodies.size(), 1u);
    EXPECT_EQ(clearance(sliding.bodies[0], sliding.planes.at(0).point, sliding.planes[0].normal), 0.0);
    EXPECT_EQ(sliding.bodies[0].friction, 0.3);
    EXPECT_EQ(sliding.planes[0].friction, 0.3);
    EXPECT_EQ(sliding.bodies[0].velocity, Vec3(1.0, 0.0, 0.0));

    const Scene incline = example("incline");
    ASSERT_EQ(incline.bodies.size(), 2u);
    const RigidBodySpec &slope = incline.bodies[0], &box = incline.bodies[1];
    EXPECT_TRUE(slope.fixed);
    const auto [point, up] = topFace(slope);
    EXPECT_NEAR(std::acos(up.dot(Vec3::UnitY())), std::numbers::pi / 6.0, 1e-12);
    EXPECT_NEAR(clearance(box, point, up), 0.0, 1e-15);
    EXPECT_TRUE(box.orientation.isApprox(slope.orientation, 1e-15));  // face down on the slope
    EXPECT_EQ(box.friction, 0.7);
    EXPECT_EQ(slope.friction, 0.7);
    EXPECT_LT(std::tan(std::numbers::pi / 6.0), 0.7);
}

TEST(ContactScenes, TinkertoyCarStandsOnTheSlopeOnItsHingedWheels) {
    const Scene s = example("tinkertoy-car");
    EXPECT_TRUE(s.settings.planar);
    ASSERT_EQ(s.bodies.size(), 4u);  // slope, chassis, two wheels
    const auto [point, up] = topFace(s.bodies[0]);
    EXPECT_GT(up.x(), 0.0);  // the slope goes down toward +x
    for (std::size_t w : {2u, 3u}) EXPECT_NEAR(clearance(s.bodies[w], point, up), 0.0, 1e-15) << w;
    EXPECT_GT(clearance(s.bodies[1], point, up), 0.0);  // the chassis clears the slope
    ASSERT_EQ(s.constraints.size(), 2u);
    for (const ConstraintSpec& c : s.constraints) EXPECT_EQ(std::get<HingeSpec>(c).axisA, Vec3::UnitZ());
    EXPECT_LT(buildSimulation(s)->constraintError(), 1e-12);  // the hinges' points coincide
}

// Nothing starts inside anything else: balls and particles apart, all above the box's floor
// and between its walls.
TEST(ContactScenes, MarblesStartApartAboveTheBox) {
    const Scene s = example("marbles");
    std::vector<std::pair<Vec3, double>> items;  // centre, radius (0 for a particle)
    for (const RigidBodySpec& b : s.bodies)
        if (!b.fixed) items.emplace_back(b.position, std::get<SphereShape>(b.shape).radius);
    EXPECT_EQ(items.size(), 20u);
    for (const ParticleInit& p : s.particles) items.emplace_back(p.position, 0.0);
    EXPECT_EQ(items.size(), 50u);
    const RigidBodySpec& floor = s.bodies.at(0);
    const double inside = 0.5 * std::get<BoxShape>(s.bodies.at(1).shape).size.z() - 0.1;  // the walls' inner half width
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& [x, r] = items[i];
        EXPECT_GT(x.y() - r, floor.position.y() + 0.5 * std::get<BoxShape>(floor.shape).size.y()) << i;
        EXPECT_LT(std::max(std::abs(x.x()), std::abs(x.z())) + r, inside) << i;
        for (std::size_t j = 0; j < i; ++j)
            EXPECT_GT((x - items[j].first).norm(), r + items[j].second) << i << ' ' << j;
    }
}

// The thesis scenes for the contact model oba start apart: no two cubes of the jam overlap
// (their bounding spheres are apart) and all start inside the box's walls, above its floor;
// the stack's cubes 1 cm apart; the pendulum's links hang clear of the ground.
TEST(ContactScenes, ObaScenesStartApart) {
    const Scene jam = example("cube-jam-100");
    EXPECT_EQ(jam.settings.contactModel, "oba");
    std::vector<Vec3> cubes;
    for (const RigidBodySpec& b : jam.bodies)
        if (!b.fixed) cubes.push_back(b.position);
    ASSERT_EQ(cubes.size(), 100u);
    const double cube = std::get<BoxShape>(jam.bodies.back().shape).size.x(), reach = 0.5 * std::sqrt(3.0) * cube;
    const RigidBodySpec& floor = jam.bodies.at(0);
    const double inside = 0.5 * std::get<BoxShape>(jam.bodies.at(3).shape).size.x();  // a wall's inner half width
    for (std::size_t i = 0; i < cubes.size(); ++i) {
        EXPECT_GT(cubes[i].y() - reach, floor.position.y() + 0.5 * std::get<BoxShape>(floor.shape).size.y()) << i;
        EXPECT_LT(std::max(std::abs(cubes[i].x()), std::abs(cubes[i].z())) + reach, inside) << i;
        for (std::size_t j = 0; j < i; ++j) EXPECT_GT((cubes[i] - cubes[j]).norm(), 2.0 * reach) << i << ' ' << j;
    }
    const Scene stack = example("cube-stack-10");
    ASSERT_EQ(stack.bodies.size(), 10u);
    for (std::size_t k = 1; k < stack.bodies.size(); ++k)
        EXPECT_NEAR(stack.bodies[k].position.y() - stack.bodies[k - 1].position.y(), 1.01, 1e-12);
    const Scene pendulum = example("pendulum-6");
    ASSERT_EQ(pendulum.bodies.size(), 6u);
    EXPECT_EQ(pendulum.constraints.size(), 6u);  // a nail and five pins
    for (const RigidBodySpec& link : pendulum.bodies) EXPECT_GT(clearance(link, Vec3::Zero(), Vec3::UnitY()), 0.1);
}

// Every shipped contact scene runs under oba, with freezing and without: a sixth of a second
// (10 frames) without diverging, its state finite, and the position update leaving no overlap.
// The pyramid of 210 cubes is left out: oba's programs take about a third of a second per
// step on it (docs/contact.md).
TEST(ContactScenes, EveryContactSceneRunsUnderOba) {
    for (const ExampleScene& e : exampleScenes()) {
        if (e.category != "Contact" || e.name == "pyramid") continue;
        for (const bool freezing : {true, false}) {
            Scene scene = e.make();
            scene.settings.contactModel = "oba";
            scene.settings.contact.freezing = freezing;
            const auto sim = buildSimulation(scene);
            const auto& model = dynamic_cast<const ObaContact&>(sim->contactModel());
            double found = 0.0, left = 0.0;
            for (int f = 0; f < 10; ++f) {
                const FrameReport report = sim->step();
                ASSERT_FALSE(report.diverged) << e.name << ": " << report.message;
                found = std::max(found, report.contact.maxPenetration);
                left = std::max(left, model.lastOverlapAfterPositions());
            }
            VecX state;
            sim->world().getState(state);
            EXPECT_TRUE(state.allFinite()) << e.name;
            EXPECT_LE(left, ObaContact::kOverlapTolerance) << e.name << " (found " << found << " m)";
        }
    }
}

// The thesis's jam of a hundred cubes poured into a box, for four seconds: the cubes land on
// each other and wedge against the walls, where a position program can have no solution. It
// is rolled back (and an impulse program without a usable answer gives no impulse); before
// that, such a step threw cubes kilometres away within a second and a half. And a cube
// squeezed between two frozen ones, whose contact normals leaned by a few milliradians, slid
// 2.6 m sideways in one program before a program's shift was bounded as its turn is. Cubes
// heaped above the walls may slide over them, as they do under baraff; none may jump: no cube
// moves in a frame farther than falling from the highest start lets it.
TEST(ContactScenes, CubeJamRunsFourSecondsUnderOba) {
    const auto sim = buildSimulation(test::example("cube-jam-100"));
    const auto& model = dynamic_cast<const ObaContact&>(sim->contactModel());
    const RigidBodies& bodies = sim->world().rigidBodies();
    double highest = 0.0;
    std::vector<Vec3> previous;
    for (Index k = 0; k < bodies.count(); ++k) {
        previous.push_back(bodies.position(k));
        highest = std::max(highest, bodies.position(k).y());
    }
    const double frame = sim->settings().dt;
    const double farthest = 1.5 * std::sqrt(2.0 * test::kG * highest) * frame;
    double left = 0.0, moved = 0.0;
    for (int f = 0; f < 120; ++f) {
        const FrameReport report = sim->step();
        ASSERT_FALSE(report.diverged) << "t = " << sim->world().time() << ": " << report.message;
        left = std::max(left, model.lastOverlapAfterPositions());
        for (Index k = 0; k < bodies.count(); ++k) {
            const double step = (bodies.position(k) - previous[static_cast<std::size_t>(k)]).norm();
            EXPECT_LT(step, farthest) << "cube " << k << " at t = " << sim->world().time();
            moved = std::max(moved, step);
            previous[static_cast<std::size_t>(k)] = bodies.position(k);
        }
    }
    RecordProperty("overlap_left", std::to_string(left));
    RecordProperty("rollbacks", static_cast<int>(model.rollbacks()));
    RecordProperty("farthest_frame_move", std::to_string(moved));
    EXPECT_LE(left, 1e-3);
    // Every cube is in the box (3.4 m wide outside, on a floor 0.2 m thick) or has slid over
    // a wall (1.8 m high) onto the ground beside it.
    for (Index k = 0; k < bodies.count(); ++k) {
        if (bodies.isFixed(k)) continue;
        const Vec3 x = bodies.position(k);
        EXPECT_LT(std::max(std::abs(x.x()), std::abs(x.z())), 1.7 + 1.8) << "cube " << k;
        EXPECT_GT(x.y(), 0.15) << "cube " << k;
        EXPECT_LT(x.y(), 3.0) << "cube " << k;
    }
}

}  // namespace
}  // namespace tinkerbox
