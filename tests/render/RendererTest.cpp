// The renderer drawing rigid bodies in a real OpenGL 3.3 core context (Mesa's llvmpipe on a
// private Xvfb server), read back and checked pixel by pixel. Each test also saves what it
// drew as a PNG next to this test program, to look at.
#include <glad/gl.h>  // before GLFW, which would include the system's gl.h
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>

#include "PrivateXServer.h"
#include "render/BodyOverlays.h"
#include "render/Renderer.h"

namespace tinkerbox {
namespace {

[[maybe_unused]] const auto* const kXServer = ::testing::AddGlobalTestEnvironment(new PrivateXServer);

constexpr int kWidth = 640, kHeight = 480;
constexpr Color kBackground{0.09f, 0.10f, 0.12f, 1.0f};
constexpr Color kBlue{0.30f, 0.50f, 0.90f, 1.0f};
constexpr Color kRed{0.90f, 0.30f, 0.25f, 1.0f};
constexpr Color kGreen{0.35f, 0.80f, 0.40f, 1.0f};
constexpr Color kSand{0.85f, 0.70f, 0.45f, 1.0f};

struct Rgb {
    double r, g, b;  // 0 .. 255
    double distance(const Rgb& o) const {
        return std::sqrt((r - o.r) * (r - o.r) + (g - o.g) * (g - o.g) + (b - o.b) * (b - o.b));
    }
    double brightness() const { return (r + g + b) / 3.0; }
};

Rgb rgb(const Color& c, double scale = 1.0) { return {255.0 * c.r * scale, 255.0 * c.g * scale, 255.0 * c.b * scale}; }

struct Image {
    std::vector<std::uint8_t> pixels;  // RGBA, top row first
    Rgb at(double x, double y) const {
        const int ix = static_cast<int>(std::floor(x)), iy = static_cast<int>(std::floor(y));
        if (ix < 0 || iy < 0 || ix >= kWidth || iy >= kHeight) throw std::out_of_range("pixel outside the image");
        const std::uint8_t* p = &pixels[(static_cast<std::size_t>(iy) * kWidth + ix) * 4];
        return {double(p[0]), double(p[1]), double(p[2])};
    }
    Rgb at(const Vec3& windowPoint) const { return at(windowPoint.x(), windowPoint.y()); }
};

// The tests share one hidden window (a fresh one per test costs llvmpipe a context each time).
class RendererTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        ASSERT_TRUE(glfwInit()) << "no display";
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
        window_ = glfwCreateWindow(kWidth, kHeight, "render test", nullptr, nullptr);
        ASSERT_NE(window_, nullptr);
        glfwMakeContextCurrent(window_);
        ASSERT_TRUE(gladLoadGL(glfwGetProcAddress));
        renderer_ = new Renderer();
    }
    static void TearDownTestSuite() {
        delete renderer_;
        renderer_ = nullptr;
        if (window_) glfwDestroyWindow(window_);
        glfwTerminate();
    }

    static Camera camera(Camera::Mode mode, const Vec3& low, const Vec3& high) {
        Camera c;
        c.setViewport(kWidth, kHeight);
        c.setMode(mode);
        c.frame(low, high);
        return c;
    }

    // Draws, reads back, and saves the picture as <name>.png by this test program.
    static Image draw(const RenderFrame& frame, const Camera& camera, const std::string& name) {
        glViewport(0, 0, kWidth, kHeight);
        renderer_->draw(frame, camera);
        glFinish();
        Image image{readFramebuffer(kWidth, kHeight)};
        saveFramebufferPng(std::filesystem::path(TINKERBOX_RENDER_OUTPUT) / (name + ".png"), kWidth, kHeight);
        EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
        return image;
    }

    static RenderFrame emptyFrame() {
        RenderFrame frame;
        frame.background = kBackground;
        frame.grid = false;
        return frame;
    }

    static BodyInstance box(const Vec3& position, const Vec3& size, const Color& fill) {
        BodyInstance b;
        b.shape = BodyInstance::Shape::Box;
        b.position = position;
        b.size = size;
        b.fill = fill;
        return b;
    }

    static BodyInstance sphere(const Vec3& position, double radius, const Color& fill) {
        BodyInstance b;
        b.shape = BodyInstance::Shape::Sphere;
        b.position = position;
        b.radius = radius;
        b.fill = fill;
        return b;
    }

    static GLFWwindow* window_;
    static Renderer* renderer_;
};

GLFWwindow* RendererTest::window_ = nullptr;
Renderer* RendererTest::renderer_ = nullptr;

// Where the renderer's light comes from: over the viewer's right shoulder, fixed to the view.
Vec3 lightDirection(const Camera& camera) {
    const Mat4 view = camera.view();
    return (0.35 * view.block<1, 3>(0, 0).transpose() + 0.75 * view.block<1, 3>(1, 0).transpose() +
            0.55 * view.block<1, 3>(2, 0).transpose())
        .normalized();
}

// Ambient 0.35 and diffuse 0.65 (Lambert): the colour of a face of normal n.
Rgb litFace(const Color& fill, const Vec3& n, const Camera& camera) {
    return rgb(fill, 0.35 + 0.65 * std::max(0.0, n.dot(lightDirection(camera))));
}

TEST_F(RendererTest, BoxFacesAreLitByTheirNormal) {
    RenderFrame frame = emptyFrame();
    const Eigen::Quaterniond turn(Eigen::AngleAxisd(0.4, Vec3(0.3, 1.0, 0.2).normalized()));
    BodyInstance b = box(Vec3(0.2, 0.1, -0.3), Vec3(1.0, 0.8, 1.2), kBlue);
    b.orientation = turn;
    frame.bodies.push_back(b);
    const Camera view = camera(Camera::Mode::ThreeD, Vec3(-1, -1, -1), Vec3(1, 1, 1));
    const Image image = draw(frame, view, "box-lit-3d");
    const Vec3 eye = view.eye();
    int facesSeen = 0;
    for (int axis = 0; axis < 3; ++axis)
        for (double sign : {-1.0, 1.0}) {
            const Vec3 n = turn * (sign * Vec3::Unit(axis));
            const Vec3 centre = b.position + 0.5 * b.size[axis] * n;
            if ((eye - centre).dot(n) <= 0.0) continue;  // faces away
            ++facesSeen;
            const Rgb seen = image.at(view.project(centre));
            EXPECT_LT(seen.distance(litFace(kBlue, n, view)), 4.0) << "face " << axis << ' ' << sign;
            EXPECT_GT(seen.distance(rgb(kBackground)), 30.0);
        }
    EXPECT_EQ(facesSeen, 3);
}

TEST_F(RendererTest, NearerBodiesHideFartherOnesWhateverTheOrder) {
    const Camera view = camera(Camera::Mode::ThreeD, Vec3(-1, -1, -1), Vec3(1, 1, 1));
    // A small red box, and a big blue one between it and the eye.
    const Vec3 towardEye = (view.eye() - view.target()).normalized();
    const BodyInstance far = box(Vec3::Zero(), Vec3(0.4, 0.4, 0.4), kRed);
    const BodyInstance nearer = box(1.2 * towardEye, Vec3(0.8, 0.8, 0.8), kBlue);
    for (bool nearFirst : {false, true}) {
        RenderFrame frame = emptyFrame();
        frame.bodies = nearFirst ? std::vector{nearer, far} : std::vector{far, nearer};
        const Image image = draw(frame, view, nearFirst ? "depth-near-first-3d" : "depth-far-first-3d");
        const Rgb seen = image.at(view.project(Vec3::Zero()));
        EXPECT_GT(seen.b, seen.r + 40.0) << (nearFirst ? "near first" : "far first");
    }
    // The same in 2D, where z decides: a sphere at z = 1 over a box around z = 0 and a box at z = -2.
    const Camera flat = camera(Camera::Mode::TwoD, Vec3(-2, -2, 0), Vec3(2, 2, 0));
    for (bool frontFirst : {false, true}) {
        RenderFrame frame = emptyFrame();
        const BodyInstance front = sphere(Vec3(0, 0, 1), 0.5, kGreen);
        const BodyInstance middle = box(Vec3::Zero(), Vec3(1.5, 1.5, 1.0), kBlue);
        const BodyInstance back = box(Vec3(0, 0, -2), Vec3(3, 3, 1), kRed);
        frame.bodies = frontFirst ? std::vector{front, middle, back} : std::vector{back, middle, front};
        const Image image = draw(frame, flat, frontFirst ? "depth-front-first-2d" : "depth-back-first-2d");
        const Rgb centre = image.at(flat.project(Vec3::Zero()));
        const Rgb ring = image.at(flat.project(Vec3(0.65, 0, 0)));
        const Rgb rim = image.at(flat.project(Vec3(1.2, 0, 0)));
        EXPECT_GT(centre.g, centre.b + 40.0) << "the sphere";
        EXPECT_GT(ring.b, ring.r + 40.0) << "the middle box";
        EXPECT_GT(rim.r, rim.b + 40.0) << "the back box";
    }
}

TEST_F(RendererTest, SphereFillsItsRadiusWithAnOutlineOfItsPixelWidth) {
    const Camera flat = camera(Camera::Mode::TwoD, Vec3(-2, -2, 0), Vec3(2, 2, 0));
    RenderFrame frame = emptyFrame();
    BodyInstance ball = sphere(Vec3(0.3, -0.2, 0), 1.0, kSand);
    ball.outlineWidth = 3.0f;
    frame.bodies.push_back(ball);
    const Image image = draw(frame, flat, "sphere-2d");
    const double pixels = ball.radius / flat.pixelSize();  // the radius on screen
    const Vec3 centre = flat.project(ball.position);
    const Rgb outline = rgb(ball.outline);
    for (double angle = 0.1; angle < 6.2; angle += 0.5) {
        const Vec3 d(std::cos(angle), std::sin(angle), 0.0);
        const Rgb inside = image.at(centre + (pixels - 6.0) * d);
        const Rgb onRim = image.at(centre + (pixels - 1.5) * d);
        const Rgb outside = image.at(centre + (pixels + 2.0) * d);
        EXPECT_GT(inside.distance(outline), 40.0) << angle;
        EXPECT_GT(inside.distance(rgb(kBackground)), 40.0) << angle;
        EXPECT_LT(onRim.distance(outline), 4.0) << angle;
        EXPECT_LT(outside.distance(rgb(kBackground)), 4.0) << angle;
    }
    // Lit as a face of the same normal: at the centre the sphere faces the viewer.
    EXPECT_LT(image.at(centre).distance(litFace(kSand, Vec3::UnitZ(), flat)), 4.0);
}

TEST_F(RendererTest, SphereDepthIsItsSurface) {
    // A box whose front face cuts the sphere 0.7 radii before its centre: the cap in front
    // of the face shows, the rest of the sphere does not, though it is inside the sphere's
    // image and the square the sphere is drawn on lies in front of it all.
    const Camera view = camera(Camera::Mode::ThreeD, Vec3(-1, -1, -1), Vec3(1, 1, 1));
    const Vec3 towardEye = (view.eye() - view.target()).normalized();
    RenderFrame frame = emptyFrame();
    BodyInstance slab = box(Vec3::Zero(), Vec3(2.0, 2.0, 2.0), kBlue);
    slab.orientation = Eigen::Quaterniond::FromTwoVectors(Vec3::UnitZ(), towardEye);
    const BodyInstance ball = sphere((1.0 - 0.7 * 0.6) * towardEye, 0.6, kSand);
    frame.bodies = {ball, slab};
    const Image image = draw(frame, view, "sphere-depth-3d");
    const Vec3 across = towardEye.cross(Vec3::UnitY()).normalized();
    for (const Vec3& side : {across, Vec3(towardEye.cross(across))}) {
        // Points of the sphere's surface, 0.92 and 0.47 radii in front of its centre.
        const Vec3 cap = ball.position + ball.radius * (0.4 * side + std::sqrt(1.0 - 0.16) * towardEye);
        const Vec3 rim = ball.position + ball.radius * (0.88 * side + std::sqrt(1.0 - 0.88 * 0.88) * towardEye);
        const Rgb capSeen = image.at(view.project(cap)), rimSeen = image.at(view.project(rim));
        EXPECT_GT(capSeen.r, 1.4 * capSeen.b) << view.project(cap).transpose();
        EXPECT_GT(rimSeen.b, 1.4 * rimSeen.r) << view.project(rim).transpose();
    }
}

TEST_F(RendererTest, FixedBodiesAreDarkerAndHatchedSelectedOnesOutlinedInTheSelectionColour) {
    const Camera flat = camera(Camera::Mode::TwoD, Vec3(-3, -1, 0), Vec3(3, 1, 0));
    RenderFrame frame = emptyFrame();
    BodyInstance free = box(Vec3(-2, 0, 0), Vec3(1.5, 1.5, 1), kGreen);
    BodyInstance fixed = free;
    fixed.position = Vec3(0, 0, 0);
    fixed.fixed = true;
    BodyInstance selected = free;
    selected.position = Vec3(2, 0, 0);
    selected.selected = true;
    frame.bodies = {free, fixed, selected};
    const Image image = draw(frame, flat, "fixed-selected-2d");

    // Mean and spread over a patch in the middle of each face.
    const auto patch = [&](const Vec3& position, double& mean, double& lowest, double& highest) {
        const Vec3 c = flat.project(position);
        double sum = 0.0;
        lowest = 255.0;
        highest = 0.0;
        for (int dy = -10; dy < 10; ++dy)
            for (int dx = -10; dx < 10; ++dx) {
                const double b = image.at(c.x() + dx, c.y() + dy).brightness();
                sum += b;
                lowest = std::min(lowest, b);
                highest = std::max(highest, b);
            }
        mean = sum / 400.0;
    };
    double freeMean, freeLow, freeHigh, fixedMean, fixedLow, fixedHigh, selectedMean, selectedLow, selectedHigh;
    patch(free.position, freeMean, freeLow, freeHigh);
    patch(fixed.position, fixedMean, fixedLow, fixedHigh);
    patch(selected.position, selectedMean, selectedLow, selectedHigh);
    EXPECT_LT(freeHigh - freeLow, 2.0);        // one flat face
    EXPECT_LT(fixedMean, 0.7 * freeMean);      // darker
    EXPECT_GT(fixedHigh - fixedLow, 10.0);     // hatched
    EXPECT_GT(selectedMean, freeMean + 10.0);  // lighter
    // A pixel inside the middle of the selected box's right edge, and of the free one's.
    const Vec3 inside(-1.0, 0.0, 0.0);
    const Rgb selectedEdge = image.at(flat.project(selected.position + Vec3(0.75, 0, 0)) + inside);
    const Rgb freeEdge = image.at(flat.project(free.position + Vec3(0.75, 0, 0)) + inside);
    EXPECT_LT(selectedEdge.distance({255.0, 229.5, 51.0}), 30.0);
    EXPECT_LT(freeEdge.distance(rgb(free.outline)), 30.0);
}

// A cube given as a hull of 12 triangles: outlined along its 12 edges, not its diagonals.
std::shared_ptr<const BodyMesh> triangulatedCube() {
    std::vector<Vec3> corners;
    for (int k = 0; k < 8; ++k) corners.emplace_back((k & 1) - 0.5, ((k >> 1) & 1) - 0.5, ((k >> 2) & 1) - 0.5);
    return makeBodyMesh(corners, {{0, 1, 3},
                                  {0, 3, 2},
                                  {4, 5, 7},
                                  {4, 7, 6},
                                  {0, 1, 5},
                                  {0, 5, 4},
                                  {2, 3, 7},
                                  {2, 7, 6},
                                  {0, 2, 6},
                                  {0, 6, 4},
                                  {1, 3, 7},
                                  {1, 7, 5}});
}

TEST_F(RendererTest, HullsAreLitPerFaceAndOutlinedAlongFeatureEdgesOnly) {
    const Camera flat = camera(Camera::Mode::TwoD, Vec3(-1, -1, 0), Vec3(1, 1, 0));
    RenderFrame frame = emptyFrame();
    BodyInstance cube;
    cube.shape = BodyInstance::Shape::Mesh;
    cube.mesh = triangulatedCube();
    cube.fill = kSand;
    cube.outlineWidth = 3.0f;
    frame.bodies.push_back(cube);
    const Image image = draw(frame, flat, "hull-cube-2d");
    // The front face's diagonals (either one) pass through its centre; the edges are at +-0.5.
    const Rgb face = litFace(kSand, Vec3::UnitZ(), flat);
    for (const Vec3& p : {Vec3(0, 0, 0), Vec3(0.2, 0.2, 0), Vec3(0.2, -0.2, 0)})
        EXPECT_LT(image.at(flat.project(p)).distance(face), 4.0) << p.transpose();
    EXPECT_LT(image.at(flat.project(Vec3(0.5, 0.1, 0))).distance(rgb(cube.outline)), 30.0);
    EXPECT_LT(image.at(flat.project(Vec3(0.1, -0.5, 0))).distance(rgb(cube.outline)), 30.0);
}

TEST_F(RendererTest, OverlaysShowThroughBodies) {
    const Camera view = camera(Camera::Mode::ThreeD, Vec3(-1, -1, -1), Vec3(1, 1, 1));
    RenderFrame frame = emptyFrame();
    frame.bodies.push_back(box(Vec3::Zero(), Vec3(1, 1, 1), kBlue));
    addBodyAxes(frame, Vec3::Zero(), Eigen::Quaterniond::Identity(), 0.9);
    addCentreOfMass(frame, Vec3::Zero());
    const Image image = draw(frame, view, "overlays-3d");
    // Inside the box, on the x axis: the axis is red however deep in the box it runs.
    const Rgb axis = image.at(view.project(Vec3(0.25, 0, 0)));
    EXPECT_GT(axis.r, axis.b + 60.0);
    EXPECT_GT(image.at(view.project(Vec3::Zero())).brightness(), 200.0);  // the white centre of mass
}

// A square cloth of 5 x 5 vertices around `centre`, spanned by the unit vectors u and w
// (side 2 size), turning counter-clockwise seen from u x w.
SurfaceInstance squareCloth(const Vec3& centre, const Vec3& u, const Vec3& w, double size) {
    SurfaceInstance cloth;
    for (int j = -2; j <= 2; ++j)
        for (int i = -2; i <= 2; ++i) cloth.vertices.push_back(centre + 0.5 * size * (i * u + j * w));
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i) {
            const int a = 5 * j + i;
            cloth.triangles.push_back({a, a + 1, a + 6});
            cloth.triangles.push_back({a, a + 6, a + 5});
        }
    cloth.normals = vertexNormals(cloth.vertices, cloth.triangles);
    cloth.front = kSand;
    cloth.back = kGreen;
    return cloth;
}

// Facing the viewer, a cloth shows its front lit as a face of its normal; turned round (its
// triangles the other way), its back in the back colour, lit as the side seen: in both views.
TEST_F(RendererTest, ClothSurfacesShowTheSideThatFacesTheViewerInItsColour) {
    const Camera view3D = camera(Camera::Mode::ThreeD, Vec3(-1, -1, -1), Vec3(1, 1, 1));
    const Camera view2D = camera(Camera::Mode::TwoD, Vec3(-1, -1, 0), Vec3(1, 1, 0));
    for (const Camera* view : {&view3D, &view2D}) {
        const bool twoD = view == &view2D;
        const Vec3 towardEye = twoD ? Vec3(Vec3::UnitZ()) : Vec3((view->eye() - view->target()).normalized());
        const Vec3 u = towardEye.cross(Vec3::UnitY()).normalized(), w = towardEye.cross(u);
        for (bool turned : {false, true}) {
            RenderFrame frame = emptyFrame();
            // u x w = towardEye: the triangles turn counter-clockwise seen from the viewer, unless turned round.
            SurfaceInstance cloth = squareCloth(Vec3::Zero(), turned ? w : u, turned ? u : w, 0.6);
            frame.surfaces.push_back(cloth);
            const std::string name = std::string("cloth-") + (turned ? "back" : "front") + (twoD ? "-2d" : "-3d");
            const Image image = draw(frame, *view, name);
            const Rgb expected = litFace(turned ? cloth.back : cloth.front, towardEye, *view);
            for (const Vec3& p : {Vec3(Vec3::Zero()), Vec3(0.4 * u + 0.3 * w), Vec3(-0.35 * u - 0.4 * w)})
                EXPECT_LT(image.at(view->project(p)).distance(expected), 4.0) << name << ' ' << p.transpose();
            EXPECT_LT(image.at(view->project(0.8 * u)).distance(rgb(kBackground)), 4.0) << name << ": outside";
        }
    }
}

// A cloth lying on a sphere, its vertices on the surface: its flat triangles cut into the
// sphere between them. Drawn nearer the viewer by a quarter of its spacing, it hides the
// sphere everywhere it covers; not lifted, the sphere shows through the triangles' middles.
// A particle on the cloth shows whole over it.
TEST_F(RendererTest, ALiftedClothShowsOverTheSphereItLiesOnAndItsParticlesOverIt) {
    const Camera view = camera(Camera::Mode::ThreeD, Vec3(-1, -1, -1), Vec3(1, 1, 1));
    const Vec3 towardEye = (view.eye() - view.target()).normalized();
    const Vec3 u = towardEye.cross(Vec3::UnitY()).normalized(), w = u.cross(towardEye);
    constexpr double kRadius = 1.0, kSpacing = 0.25;
    SurfaceInstance cloth = squareCloth(Vec3::Zero(), u, w, 4 * kSpacing);
    for (Vec3& v : cloth.vertices) v = kRadius * (towardEye + v).normalized();  // onto the sphere
    cloth.normals = vertexNormals(cloth.vertices, cloth.triangles);
    const Vec3 middle = cloth.vertices[12];
    for (double lift : {0.0, 0.25 * kSpacing}) {
        RenderFrame frame = emptyFrame();
        frame.bodies.push_back(sphere(Vec3::Zero(), kRadius, kRed));
        cloth.lift = lift;
        frame.surfaces.push_back(cloth);
        frame.discs.push_back({middle, 5.0f, kBlue, kBlue, 1.0f});
        const Image image = draw(frame, view, lift > 0.0 ? "cloth-on-sphere-lifted-3d" : "cloth-on-sphere-3d");
        int sphereSeen = 0;
        for (const auto& t : cloth.triangles) {
            const Vec3 centroid = (cloth.vertices[t[0]] + cloth.vertices[t[1]] + cloth.vertices[t[2]]) / 3.0;
            const Rgb seen = image.at(view.project(centroid));
            if (seen.r > seen.g + 60.0) ++sphereSeen;  // red, not sand
        }
        if (lift > 0.0) {
            EXPECT_EQ(sphereSeen, 0) << "the sphere shows through the lifted cloth";
            // The particle: blue at its centre and 3 pixels out, in front of the lifted cloth.
            const Vec3 centre = view.project(middle);
            for (const Vec3& offset : {Vec3(0, 0, 0), Vec3(3, 0, 0), Vec3(0, -3, 0)}) {
                const Rgb seen = image.at(centre + offset);
                EXPECT_GT(seen.b, seen.r + 60.0) << offset.transpose();
            }
        } else {
            EXPECT_GT(sphereSeen, static_cast<int>(cloth.triangles.size()) / 2) << "the test's premise";
        }
    }
}

// A hair strand as a fibre of tangent t (Kajiya & Kay 1989), as segment.vert lights it: ambient
// 0.35 and diffuse 0.65 sin(t, light), plus a white highlight 0.3 sin(t, half vector)^64.
Rgb litFibre(const Color& base, const Vec3& t, const Vec3& towardEye, const Camera& camera) {
    const Vec3 light = lightDirection(camera);
    const double tl = t.dot(light), th = t.dot((light + towardEye).normalized());
    const double diffuse = std::sqrt(std::max(1.0 - tl * tl, 0.0));
    const double highlight = 0.3 * std::pow(std::sqrt(std::max(1.0 - th * th, 0.0)), 64.0);
    const Rgb lit = rgb(base, 0.35 + 0.65 * diffuse);
    return {std::min(255.0, lit.r + 255.0 * highlight), std::min(255.0, lit.g + 255.0 * highlight),
            std::min(255.0, lit.b + 255.0 * highlight)};
}

// Two strands of one colour in both views: one across the light and the view, fully lit with
// its highlight, the other along the light, in the ambient light alone. Each is its fibre
// colour at its middle; a strand's colour goes from its root's to its tip's.
TEST_F(RendererTest, HairStrandsAreLitAsFibresByTheirTangents) {
    constexpr Color kHair{0.40f, 0.30f, 0.20f, 1.0f};
    const Camera view3D = camera(Camera::Mode::ThreeD, Vec3(-1, -1, -1), Vec3(1, 1, 1));
    const Camera view2D = camera(Camera::Mode::TwoD, Vec3(-1, -1, 0), Vec3(1, 1, 0));
    for (const Camera* view : {&view3D, &view2D}) {
        const bool twoD = view == &view2D;
        const Vec3 light = lightDirection(*view);
        const Vec3 across =
            (twoD ? Vec3(light.cross(Vec3::UnitZ())) : Vec3(light.cross(view->eye() - view->target()))).normalized();
        // Along the light, as seen on the screen: in 2D the light's part in the plane.
        const Vec3 along = twoD ? Vec3(light.x(), light.y(), 0.0).normalized() : light;
        RenderFrame frame = emptyFrame();
        const Vec3 acrossMiddle(-0.5, 0.0, 0.0), alongMiddle(0.5, 0.0, 0.0);
        for (const auto& [middle, t] : {std::pair{acrossMiddle, across}, std::pair{alongMiddle, along}}) {
            StrandInstance strand;
            strand.points = {middle - 0.3 * t, middle + 0.3 * t};
            strand.width = 7.0f;
            strand.root = strand.tip = kHair;
            frame.strands.push_back(strand);
        }
        StrandInstance graded;  // root red, tip blue, along the bottom
        graded.points = {Vec3(-0.6, -0.6, 0.0), Vec3(-0.2, -0.6, 0.0), Vec3(0.2, -0.6, 0.0), Vec3(0.6, -0.6, 0.0)};
        graded.width = 7.0f;
        graded.root = kRed;
        graded.tip = kBlue;
        frame.strands.push_back(graded);
        const std::string name = twoD ? "hair-2d" : "hair-3d";
        const Image image = draw(frame, *view, name);
        const auto towardEye = [&](const Vec3& p) {
            return twoD ? Vec3(Vec3::UnitZ()) : Vec3((view->eye() - p).normalized());
        };
        const Rgb acrossSeen = image.at(view->project(acrossMiddle)), alongSeen = image.at(view->project(alongMiddle));
        EXPECT_LT(acrossSeen.distance(litFibre(kHair, across, towardEye(acrossMiddle), *view)), 5.0) << name;
        EXPECT_LT(alongSeen.distance(litFibre(kHair, along, towardEye(alongMiddle), *view)), 5.0) << name;
        EXPECT_GT(acrossSeen.brightness(), alongSeen.brightness() + 60.0) << name;
        const Rgb rootEnd = image.at(view->project(Vec3(-0.4, -0.6, 0.0))),
                  tipEnd = image.at(view->project(Vec3(0.4, -0.6, 0.0)));
        EXPECT_GT(rootEnd.r, rootEnd.b + 30.0) << name << ": the root's piece is reddish";
        EXPECT_GT(tipEnd.b, tipEnd.r + 30.0) << name << ": the tip's piece is bluish";
    }
}

// A scene of every shape and marker, in both views, to look at; and the draw time of 5,000 boxes.
TEST_F(RendererTest, ShowcaseInBothViews) {
    RenderFrame frame;
    frame.groundLevel = -1.0;
    BodyInstance floor = box(Vec3(0, -1.1, 0), Vec3(6, 0.2, 3), kSand);
    floor.fixed = true;
    frame.bodies.push_back(floor);
    BodyInstance tilted = box(Vec3(-1.6, 0.0, 0), Vec3(1.2, 0.8, 0.8), kBlue);
    tilted.orientation = Eigen::Quaterniond(Eigen::AngleAxisd(0.5, Vec3(0.2, 0.4, 1).normalized()));
    frame.bodies.push_back(tilted);
    BodyInstance picked = box(Vec3(0.0, -0.55, 0.3), Vec3(0.9, 0.9, 0.9), kGreen);
    picked.selected = true;
    frame.bodies.push_back(picked);
    BodyInstance ball = sphere(Vec3(1.6, -0.3, 0), 0.7, kRed);
    ball.orientation = Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Vec3(1, 1, 0).normalized()));
    frame.bodies.push_back(ball);
    BodyInstance tetra;
    tetra.shape = BodyInstance::Shape::Mesh;
    const std::vector<Vec3> tetraCorners = {Vec3(-0.5, -0.4, -0.4), Vec3(0.6, -0.4, -0.3), Vec3(0.0, -0.4, 0.6),
                                            Vec3(0.05, 0.6, 0.0)};
    tetra.mesh = makeBodyMesh(tetraCorners, {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}});
    tetra.position = Vec3(0.1, 0.9, -0.2);
    tetra.orientation = Eigen::Quaterniond(Eigen::AngleAxisd(0.6, Vec3::UnitY()));
    tetra.fill = {0.75f, 0.55f, 0.90f, 1.0f};
    frame.bodies.push_back(tetra);
    addBodyAxes(frame, tilted.position, tilted.orientation, 0.8);
    addCentreOfMass(frame, tilted.position);
    addAngularVelocity(frame, ball.position, Vec3(0.0, 0.0, 2.0), 0.3, 0.45);
    addCentreOfMass(frame, ball.position);
    const Vec3 apex = tetra.position + tetra.orientation * tetraCorners[3];
    frame.segments.push_back({apex, apex + Vec3(0.0, 1.5, 0.0), 2.0f, {0.6f, 0.62f, 0.66f, 1.0f}});  // a string

    const Camera view3D = camera(Camera::Mode::ThreeD, Vec3(-2.5, -1.2, -1), Vec3(2.5, 1.6, 1));
    const Camera view2D = camera(Camera::Mode::TwoD, Vec3(-2.5, -1.2, 0), Vec3(2.5, 2.2, 0));
    for (const auto& [view, name] : {std::pair{view3D, "showcase-3d"}, std::pair{view2D, "showcase-2d"}}) {
        const Image image = draw(frame, view, name);
        for (const BodyInstance& b : frame.bodies) {
            // Below the sphere's centre, off the markers drawn there.
            const Vec3 inside = b.shape == BodyInstance::Shape::Sphere ? Vec3(0, -0.3, 0) : Vec3::Zero();
            EXPECT_GT(image.at(view.project(b.position + inside)).distance(rgb(kBackground)), 30.0) << name;
        }
    }

    // 5,000 boxes in a 50 x 10 x 10 block.
    RenderFrame many = emptyFrame();
    for (int i = 0; i < 5000; ++i) {
        BodyInstance b = box(Vec3(0.3 * (i % 50) - 7.5, 0.3 * ((i / 50) % 10) - 1.5, 0.3 * (i / 500) - 1.5),
                             Vec3(0.2, 0.2, 0.2), i % 7 == 0 ? kRed : kBlue);
        b.orientation = Eigen::Quaterniond(Eigen::AngleAxisd(0.1 * i, Vec3(1, 2, 3).normalized()));
        many.bodies.push_back(b);
    }
    const Camera wide = camera(Camera::Mode::ThreeD, Vec3(-7.6, -1.6, -1.6), Vec3(7.3, 1.4, 1.4));
    draw(many, wide, "boxes-5000-3d");
    // The fastest of a few frames: the machine may be busy with other work.
    double ms = INFINITY;
    for (int k = 0; k < 8; ++k) {
        const auto start = std::chrono::steady_clock::now();
        renderer_->draw(many, wide);
        glFinish();
        ms = std::min(ms, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::cout << "5,000 boxes, " << kWidth << " x " << kHeight << ": " << ms << " ms a frame\n";
}

}  // namespace
}  // namespace tinkerbox
