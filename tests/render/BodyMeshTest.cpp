#include <gtest/gtest.h>

#include <stdexcept>

#include "render/BodyOverlays.h"
#include "render/RenderFrame.h"

namespace tinkerbox {
namespace {

const std::vector<Vec3> kTetrahedron = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};

TEST(BodyMesh, TetrahedronHasSixEdgesAndOutwardNormalsWhateverTheWinding) {
    for (bool reversed : {false, true}) {
        std::vector<std::array<int, 3>> faces = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
        if (reversed)
            for (auto& f : faces) std::swap(f[1], f[2]);
        const auto mesh = makeBodyMesh(kTetrahedron, faces);
        EXPECT_EQ(mesh->edges.size(), 6u);
        ASSERT_EQ(mesh->normals.size(), 4u);
        // The three faces through the origin look down -x, -y, -z; the slanted one along (1,1,1).
        EXPECT_TRUE(mesh->normals[0].isApprox(-Vec3::UnitZ()));
        EXPECT_TRUE(mesh->normals[1].isApprox(-Vec3::UnitY()));
        EXPECT_TRUE(mesh->normals[2].isApprox(-Vec3::UnitX()));
        EXPECT_TRUE(mesh->normals[3].isApprox(Vec3::Ones().normalized()));
    }
}

TEST(BodyMesh, TriangulatedCubeOutlinesTwelveEdgesNotItsDiagonals) {
    std::vector<Vec3> corners;
    for (int k = 0; k < 8; ++k) corners.emplace_back(k & 1, (k >> 1) & 1, (k >> 2) & 1);
    // Two triangles per face, split along a diagonal.
    const std::vector<std::array<int, 3>> faces = {{0, 1, 3}, {0, 3, 2}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                                                   {2, 3, 7}, {2, 7, 6}, {0, 2, 6}, {0, 6, 4}, {1, 3, 7}, {1, 7, 5}};
    const auto mesh = makeBodyMesh(corners, faces);
    ASSERT_EQ(mesh->edges.size(), 12u);
    for (const auto& e : mesh->edges)  // cube edges join corners one unit apart
        EXPECT_DOUBLE_EQ((mesh->vertices[e[0]] - mesh->vertices[e[1]]).norm(), 1.0);
}

TEST(BodyMesh, RefusesAnIndexOutOfRange) {
    EXPECT_THROW(makeBodyMesh(kTetrahedron, {{0, 1, 4}}), std::invalid_argument);
    EXPECT_THROW(makeBodyMesh(kTetrahedron, {{0, -1, 2}}), std::invalid_argument);
}

TEST(BodyOverlays, AxesFollowTheOrientation) {
    RenderFrame frame;
    const Vec3 origin(1, 2, 3);
    const Eigen::Quaterniond quarterTurnAboutZ(Eigen::AngleAxisd(0.5 * M_PI, Vec3::UnitZ()));
    addBodyAxes(frame, origin, quarterTurnAboutZ, 2.0);
    ASSERT_EQ(frame.overlaySegments.size(), 3u);
    EXPECT_TRUE(frame.overlaySegments[0].b.isApprox(origin + 2.0 * Vec3::UnitY()));  // x turns to y
    EXPECT_TRUE(frame.overlaySegments[1].b.isApprox(origin - 2.0 * Vec3::UnitX()));  // y turns to -x
    EXPECT_TRUE(frame.overlaySegments[2].b.isApprox(origin + 2.0 * Vec3::UnitZ()));
    for (const SegmentInstance& s : frame.overlaySegments) EXPECT_EQ(s.a, origin);
}

// The arc turns about omega by the right-hand rule: the sum of r x dr along it points along omega.
Vec3 arcTurn(const RenderFrame& frame, const Vec3& centre, double arcRadius) {
    Vec3 turn = Vec3::Zero();
    for (const SegmentInstance& s : frame.overlaySegments)
        if (std::abs((s.a - centre).norm() - arcRadius) < 1e-9 && std::abs((s.b - centre).norm() - arcRadius) < 1e-9)
            turn += (s.a - centre).cross(s.b - s.a);
    return turn;
}

TEST(BodyOverlays, AngularVelocityArrowAndArcTurnTheWayTheBodyTurns) {
    const Vec3 centre(0.5, -1, 0);
    for (const Vec3& omega : {Vec3(0, 0, 3), Vec3(0, 0, -3), Vec3(1, -2, 0.5)}) {
        RenderFrame frame;
        addAngularVelocity(frame, centre, omega, 0.5, 0.4);
        ASSERT_FALSE(frame.overlaySegments.empty());
        EXPECT_TRUE(frame.overlaySegments[0].b.isApprox(centre + 0.5 * omega));
        const Vec3 turn = arcTurn(frame, centre, 0.4);
        // Three quarters of a circle in 24 chords, each adding r^2 sin(3 pi / 2 / 24).
        EXPECT_NEAR(turn.dot(omega.normalized()), 24 * 0.4 * 0.4 * std::sin(1.5 * M_PI / 24), 1e-9);
        EXPECT_NEAR(turn.cross(omega).norm(), 0.0, 1e-9);
    }
    RenderFrame still;
    addAngularVelocity(still, centre, Vec3::Zero(), 0.5, 0.4);
    EXPECT_TRUE(still.overlaySegments.empty());
}

// One dot per contact point (count of them, not the whole array) and one line per point
// along its manifold's normal, normalLength long; overlapping points in another colour.
TEST(BodyOverlays, ContactsAreDotsWithTheirNormals) {
    ContactManifold onPlane;
    onPlane.a = {ColliderKind::Rigid, 0};
    onPlane.b = {ColliderKind::Plane, 0};
    onPlane.normal = -Vec3::UnitY();  // from the body down into the plane
    onPlane.count = 2;
    onPlane.points[0] = {Vec3(-0.5, 0, 0.5), -0.01, 0};
    onPlane.points[1] = {Vec3(0.5, 0, 0.5), 0.0, 1};
    onPlane.points[2] = {Vec3(9, 9, 9), 0.0, 2};  // beyond count: not a contact
    ContactManifold between;
    between.a = {ColliderKind::Rigid, 0};
    between.b = {ColliderKind::Rigid, 1};
    between.normal = Vec3(0.6, 0.8, 0);
    between.count = 1;
    between.points[0] = {Vec3(1, 2, 3), 0.002, 0};
    const std::vector<ContactManifold> manifolds{onPlane, between};
    RenderFrame frame;
    addContacts(frame, manifolds, 0.25);
    ASSERT_EQ(frame.overlayDiscs.size(), 3u);
    ASSERT_EQ(frame.overlaySegments.size(), 3u);
    const Vec3 expected[3] = {Vec3(-0.5, 0, 0.5), Vec3(0.5, 0, 0.5), Vec3(1, 2, 3)};
    const Vec3 normals[3] = {-Vec3::UnitY(), -Vec3::UnitY(), Vec3(0.6, 0.8, 0)};
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(frame.overlayDiscs[i].center, expected[i]);
        EXPECT_EQ(frame.overlaySegments[i].a, expected[i]);
        EXPECT_TRUE(frame.overlaySegments[i].b.isApprox(expected[i] + 0.25 * normals[i], 1e-15)) << i;
        EXPECT_NEAR((frame.overlaySegments[i].b - frame.overlaySegments[i].a).norm(), 0.25, 1e-15);
    }
    // The overlapping point stands out from the touching ones.
    EXPECT_NE(frame.overlayDiscs[0].fill.g, frame.overlayDiscs[1].fill.g);
    EXPECT_EQ(frame.overlayDiscs[1].fill.g, frame.overlayDiscs[2].fill.g);

    RenderFrame none;
    addContacts(none, {}, 0.25);
    EXPECT_TRUE(none.overlayDiscs.empty());
    EXPECT_TRUE(none.overlaySegments.empty());
}

}  // namespace
}  // namespace tinkerbox
