#include "render/Renderer.h"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "render/Shaders.h"

namespace tinkerbox {

namespace {

GLuint compile(GLenum type, const char* source, const char* name) {
    const GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetShaderInfoLog(shader, sizeof log, nullptr, log);
        glDeleteShader(shader);
        throw std::runtime_error(std::string("shader ") + name + " does not compile: " + log);
    }
    return shader;
}

GLuint link(const char* vertex, const char* fragment, const char* name) {
    const GLuint vs = compile(GL_VERTEX_SHADER, vertex, name);
    const GLuint fs = compile(GL_FRAGMENT_SHADER, fragment, name);
    const GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetProgramInfoLog(program, sizeof log, nullptr, log);
        glDeleteProgram(program);
        throw std::runtime_error(std::string("shader program ") + name + " does not link: " + log);
    }
    return program;
}

Eigen::Matrix4f toFloat(const Mat4& m) { return m.cast<float>(); }

// Instance layouts, as the shaders read them.
struct DiscVertex {
    float center[3];
    float radius;
    float fill[4];
    float outline[4];
    float outlineWidth;
};

struct FlatVertex {
    float position[3];
    float color[4];
};

struct SegmentVertex {
    float a[3];
    float b[3];
    float width;
    float color[4];
    float dashed;
};

void put(float* out, const Vec3& v) {
    out[0] = static_cast<float>(v.x());
    out[1] = static_cast<float>(v.y());
    out[2] = static_cast<float>(v.z());
}

void put(float* out, const Color& c) {
    out[0] = c.r;
    out[1] = c.g;
    out[2] = c.b;
    out[3] = c.a;
}

// Binds vao with a static 2D quad as attribute 0, and leaves the instance buffer bound for
// the attributes instanceAttribute adds.
template <std::size_t N>
void bindInstancedQuad(GLuint vao, GLuint quadBuffer, const float (&quad)[N], GLuint instances) {
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, quadBuffer);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glBindBuffer(GL_ARRAY_BUFFER, instances);
}

// Attribute `index` reads `count` floats at `offset` of each instance.
void instanceAttribute(GLuint index, GLint count, GLsizei stride, std::size_t offset) {
    glEnableVertexAttribArray(index);
    glVertexAttribPointer(index, count, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(offset));
    glVertexAttribDivisor(index, 1);
}

// Dense models (a 64 x 64 cloth has 24k springs) draw their thin solid segments as 1-pixel
// GL_LINES instead of antialiased quads: llvmpipe's cost there is per primitive, not per
// pixel, and a line is one primitive where a quad is two triangles (the cloth draws in
// 18 ms as quads, 8 ms as lines). At that density the missing antialiasing does not show.
constexpr std::size_t kDenseSegmentCount = 4000;
constexpr float kThinSegmentPixels = 1.5f;

bool isThin(float width, bool dashed) { return width <= kThinSegmentPixels && !dashed; }

constexpr Color kGridMinor{0.55f, 0.60f, 0.68f, 0.07f};
constexpr Color kGridMajor{0.55f, 0.60f, 0.68f, 0.18f};
constexpr Color kAxis{0.55f, 0.60f, 0.68f, 0.40f};

// The world rectangle a 2D view shows (z = 0).
void viewBounds2D(const Camera& camera, double& x0, double& x1, double& y0, double& y1) {
    const double halfW = 0.5 * camera.width() * camera.pixelSize(), halfH = 0.5 * camera.height() * camera.pixelSize();
    x0 = camera.center2D().x() - halfW;
    x1 = camera.center2D().x() + halfW;
    y0 = camera.center2D().y() - halfH;
    y1 = camera.center2D().y() + halfH;
}

// Grid lines: in 2D on z = 0, a power of ten near 80 pixels apart with minor lines at a
// tenth (when they are not too dense); in 3D on the ground y = groundLevel around the view's
// target, metres and tenths.
template <class AddSegment>
void addGrid(const Camera& camera, double groundLevel, AddSegment&& addSegment) {
    if (camera.mode() == Camera::Mode::TwoD) {
        double x0, x1, y0, y1;
        viewBounds2D(camera, x0, x1, y0, y1);
        const double major = std::pow(10.0, std::ceil(std::log10(camera.pixelSize() * 80.0)));
        const double minor = major / 10.0;
        const bool showMinor = minor / camera.pixelSize() >= 7.0;
        for (double spacing : showMinor ? std::vector<double>{minor, major} : std::vector<double>{major}) {
            const Color color = spacing == major ? kGridMajor : kGridMinor;
            for (double x = std::floor(x0 / spacing) * spacing; x <= x1; x += spacing)
                if (spacing == major || std::abs(std::remainder(x, major)) > 0.5 * minor)
                    addSegment({x, y0, 0.0}, {x, y1, 0.0}, 1.0f, std::abs(x) < 0.5 * minor ? kAxis : color, false);
            for (double y = std::floor(y0 / spacing) * spacing; y <= y1; y += spacing)
                if (spacing == major || std::abs(std::remainder(y, major)) > 0.5 * minor)
                    addSegment({x0, y, 0.0}, {x1, y, 0.0}, 1.0f, std::abs(y) < 0.5 * minor ? kAxis : color, false);
        }
        return;
    }
    const Vec3 c = camera.target();
    const double cx = std::round(c.x()), cz = std::round(c.z());
    constexpr int kMajor = 20;  // metres each way
    for (int k = -kMajor; k <= kMajor; ++k) {
        addSegment({cx + k, groundLevel, cz - kMajor}, {cx + k, groundLevel, cz + kMajor}, 1.0f, kGridMajor, false);
        addSegment({cx - kMajor, groundLevel, cz + k}, {cx + kMajor, groundLevel, cz + k}, 1.0f, kGridMajor, false);
    }
    constexpr int kMinor = 30;  // tenths, three metres each way
    for (int k = -kMinor; k <= kMinor; ++k) {
        if (k % 10 == 0) continue;
        const double o = 0.1 * k;
        addSegment({cx + o, groundLevel, cz - 3.0}, {cx + o, groundLevel, cz + 3.0}, 1.0f, kGridMinor, false);
        addSegment({cx - 3.0, groundLevel, cz + o}, {cx + 3.0, groundLevel, cz + o}, 1.0f, kGridMinor, false);
    }
}

// A plane: in 2D its forbidden side (clipped to the view) is filled and its edge drawn;
// in 3D a translucent square around the view's target with a metre grid.
template <class AddSegment, class AddTriangle>
void addPlane(const Camera& camera, const PlaneInstance& plane, AddSegment&& addSegment, AddTriangle&& addTriangle) {
    const Vec3 n = plane.normal.normalized();
    const Color fill{plane.color.r, plane.color.g, plane.color.b, 0.28f * plane.color.a};
    if (camera.mode() == Camera::Mode::TwoD) {
        if (std::abs(n.z()) > 0.999) return;  // the plane of the view itself
        double x0, x1, y0, y1;
        viewBounds2D(camera, x0, x1, y0, y1);
        // Clip the view rectangle to the forbidden side (signed distance < 0).
        const std::array<Vec3, 4> corners{Vec3(x0, y0, 0), Vec3(x1, y0, 0), Vec3(x1, y1, 0), Vec3(x0, y1, 0)};
        std::vector<Vec3> polygon;
        for (std::size_t k = 0; k < corners.size(); ++k) {
            const Vec3& a = corners[k];
            const Vec3& b = corners[(k + 1) % corners.size()];
            const double da = (a - plane.point).dot(n), db = (b - plane.point).dot(n);
            if (da < 0.0) polygon.push_back(a);
            if ((da < 0.0) != (db < 0.0)) polygon.push_back(a + (b - a) * (da / (da - db)));
        }
        for (std::size_t k = 1; k + 1 < polygon.size(); ++k) addTriangle(polygon[0], polygon[k], polygon[k + 1], fill);
        // The edge: through the point of the plane nearest the view's centre, across the view.
        const Vec3 along = n.cross(Vec3::UnitZ()).normalized();
        const Vec3 nearest = camera.center2D() - (camera.center2D() - plane.point).dot(n) * n;
        const double reach = (x1 - x0) + (y1 - y0);
        addSegment(nearest - reach * along, nearest + reach * along, 2.0f, plane.color, false);
        return;
    }
    const Vec3 centre = camera.target() - (camera.target() - plane.point).dot(n) * n;
    const Vec3 u = (std::abs(n.y()) < 0.9 ? n.cross(Vec3::UnitY()) : n.cross(Vec3::UnitX())).normalized();
    const Vec3 w = n.cross(u);
    constexpr double kHalf = 15.0;
    const Vec3 a = centre - kHalf * u - kHalf * w, b = centre + kHalf * u - kHalf * w, c = centre + kHalf * u + kHalf * w,
               d = centre - kHalf * u + kHalf * w;
    addTriangle(a, b, c, fill);
    addTriangle(a, c, d, fill);
    const Color line{plane.color.r, plane.color.g, plane.color.b, 0.35f * plane.color.a};
    for (int k = -static_cast<int>(kHalf); k <= static_cast<int>(kHalf); ++k) {
        addSegment(centre + k * u - kHalf * w, centre + k * u + kHalf * w, 1.0f, line, false);
        addSegment(centre - kHalf * u + k * w, centre + kHalf * u + k * w, 1.0f, line, false);
    }
}

}  // namespace

struct Renderer::Impl {
    GLuint discProgram = 0, segmentProgram = 0, flatProgram = 0;
    GLuint discVao = 0, segmentVao = 0, flatVao = 0;
    GLuint quadBuffer = 0, segmentQuadBuffer = 0, discInstances = 0, segmentInstances = 0, flatVertices = 0;
    std::vector<DiscVertex> discs;
    std::vector<SegmentVertex> segments;
    std::vector<FlatVertex> triangles;
    std::vector<FlatVertex> lines;  // thin segments of dense models, two vertices each

    ~Impl() {
        glDeleteProgram(discProgram);
        glDeleteProgram(segmentProgram);
        glDeleteProgram(flatProgram);
        const GLuint arrays[] = {discVao, segmentVao, flatVao};
        glDeleteVertexArrays(3, arrays);
        const GLuint buffers[] = {quadBuffer, segmentQuadBuffer, discInstances, segmentInstances, flatVertices};
        glDeleteBuffers(5, buffers);
    }
};

Renderer::Renderer() : impl_(std::make_unique<Impl>()) {
    GLint major = 0, minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    if (major < 3 || (major == 3 && minor < 3)) {
        const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
        const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
        throw std::runtime_error(std::string("Tinkerbox needs OpenGL 3.3 core; this context is ") +
                                 (version ? version : "unknown") + " (" + (renderer ? renderer : "unknown renderer") +
                                 ")");
    }
    Impl& r = *impl_;
    r.discProgram = link(shaders::kDiscVert, shaders::kDiscFrag, "disc");
    r.segmentProgram = link(shaders::kSegmentVert, shaders::kSegmentFrag, "segment");
    r.flatProgram = link(shaders::kFlatVert, shaders::kFlatFrag, "flat");

    const float quad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
    const float segmentQuad[] = {0, -1, 1, -1, 1, 1, 0, -1, 1, 1, 0, 1};
    glGenVertexArrays(1, &r.discVao);
    glGenVertexArrays(1, &r.segmentVao);
    glGenVertexArrays(1, &r.flatVao);
    glGenBuffers(1, &r.quadBuffer);
    glGenBuffers(1, &r.segmentQuadBuffer);
    glGenBuffers(1, &r.discInstances);
    glGenBuffers(1, &r.segmentInstances);
    glGenBuffers(1, &r.flatVertices);

    bindInstancedQuad(r.discVao, r.quadBuffer, quad, r.discInstances);
    constexpr GLsizei discStride = sizeof(DiscVertex);
    instanceAttribute(1, 3, discStride, offsetof(DiscVertex, center));
    instanceAttribute(2, 1, discStride, offsetof(DiscVertex, radius));
    instanceAttribute(3, 4, discStride, offsetof(DiscVertex, fill));
    instanceAttribute(4, 4, discStride, offsetof(DiscVertex, outline));
    instanceAttribute(5, 1, discStride, offsetof(DiscVertex, outlineWidth));

    bindInstancedQuad(r.segmentVao, r.segmentQuadBuffer, segmentQuad, r.segmentInstances);
    constexpr GLsizei segmentStride = sizeof(SegmentVertex);
    instanceAttribute(1, 3, segmentStride, offsetof(SegmentVertex, a));
    instanceAttribute(2, 3, segmentStride, offsetof(SegmentVertex, b));
    instanceAttribute(3, 1, segmentStride, offsetof(SegmentVertex, width));
    instanceAttribute(4, 4, segmentStride, offsetof(SegmentVertex, color));
    instanceAttribute(5, 1, segmentStride, offsetof(SegmentVertex, dashed));

    glBindVertexArray(r.flatVao);
    glBindBuffer(GL_ARRAY_BUFFER, r.flatVertices);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(FlatVertex), reinterpret_cast<const void*>(offsetof(FlatVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(FlatVertex), reinterpret_cast<const void*>(offsetof(FlatVertex, color)));
    glBindVertexArray(0);
}

Renderer::~Renderer() = default;

void Renderer::draw(const RenderFrame& frame, const Camera& camera) {
    Impl& r = *impl_;
    const bool twoD = camera.mode() == Camera::Mode::TwoD;
    const Eigen::Matrix4f viewProjection = toFloat(camera.viewProjection());
    const float viewport[2] = {static_cast<float>(camera.width()), static_cast<float>(camera.height())};

    glClearColor(frame.background.r, frame.background.g, frame.background.b, 1.0f);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    // 2D draws in order (planes, grid, wires, springs, particles); 3D tests depth.
    if (twoD) glDisable(GL_DEPTH_TEST);
    else glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);

    r.segments.clear();
    r.triangles.clear();
    r.lines.clear();
    const bool dense = static_cast<std::size_t>(std::count_if(frame.segments.begin(), frame.segments.end(), [](const SegmentInstance& s) {
                           return isThin(s.width, s.dashed);
                       })) > kDenseSegmentCount;
    const auto addSegment = [&](const Vec3& a, const Vec3& b, float width, const Color& color, bool dashed) {
        if (dense && isThin(width, dashed)) {
            FlatVertex v;
            put(v.color, color);
            put(v.position, a);
            r.lines.push_back(v);
            put(v.position, b);
            r.lines.push_back(v);
            return;
        }
        SegmentVertex v;
        put(v.a, a);
        put(v.b, b);
        v.width = width;
        put(v.color, color);
        v.dashed = dashed ? 1.0f : 0.0f;
        r.segments.push_back(v);
    };
    const auto addTriangle = [&](const Vec3& a, const Vec3& b, const Vec3& c, const Color& color) {
        for (const Vec3* p : {&a, &b, &c}) {
            FlatVertex v;
            put(v.position, *p);
            put(v.color, color);
            r.triangles.push_back(v);
        }
    };
    // In 3D an upward-facing plane is the ground and brings its own grid.
    const bool groundPlane = std::any_of(frame.planes.begin(), frame.planes.end(),
                                         [](const PlaneInstance& p) { return p.normal.normalized().y() > 0.9; });
    if (frame.grid && (twoD || !groundPlane)) addGrid(camera, frame.groundLevel, addSegment);
    for (const PlaneInstance& p : frame.planes) addPlane(camera, p, addSegment, addTriangle);
    if (!r.triangles.empty()) {
        glDepthMask(GL_FALSE);  // translucent surfaces do not hide the model behind them
        glUseProgram(r.flatProgram);
        glUniformMatrix4fv(glGetUniformLocation(r.flatProgram, "viewProjection"), 1, GL_FALSE, viewProjection.data());
        glBindBuffer(GL_ARRAY_BUFFER, r.flatVertices);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(r.triangles.size() * sizeof(FlatVertex)), r.triangles.data(),
                     GL_STREAM_DRAW);
        glBindVertexArray(r.flatVao);
        glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(r.triangles.size()));
        glDepthMask(GL_TRUE);
    }

    // Segments: the grid and plane edges above, then wires (as polygons), springs, rods, gestures.
    for (const CircleInstance& c : frame.circles) {
        Vec3 n = c.normal.normalized();
        Vec3 u = std::abs(n.z()) < 0.9 ? n.cross(Vec3::UnitZ()).normalized() : n.cross(Vec3::UnitX()).normalized();
        const Vec3 w = n.cross(u);
        constexpr int kSides = 96;
        for (int k = 0; k < kSides; ++k) {
            const double a0 = 2.0 * std::numbers::pi * k / kSides, a1 = 2.0 * std::numbers::pi * (k + 1) / kSides;
            addSegment(c.center + c.radius * (std::cos(a0) * u + std::sin(a0) * w),
                       c.center + c.radius * (std::cos(a1) * u + std::sin(a1) * w), c.width, c.color, false);
        }
    }
    for (const SegmentInstance& s : frame.segments) addSegment(s.a, s.b, s.width, s.color, s.dashed);
    if (!r.lines.empty()) {
        glUseProgram(r.flatProgram);
        glUniformMatrix4fv(glGetUniformLocation(r.flatProgram, "viewProjection"), 1, GL_FALSE, viewProjection.data());
        glBindBuffer(GL_ARRAY_BUFFER, r.flatVertices);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(r.lines.size() * sizeof(FlatVertex)), r.lines.data(),
                     GL_STREAM_DRAW);
        glBindVertexArray(r.flatVao);
        glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(r.lines.size()));
    }
    if (!r.segments.empty()) {
        glUseProgram(r.segmentProgram);
        glUniformMatrix4fv(glGetUniformLocation(r.segmentProgram, "viewProjection"), 1, GL_FALSE, viewProjection.data());
        glUniform2fv(glGetUniformLocation(r.segmentProgram, "viewport"), 1, viewport);
        glBindBuffer(GL_ARRAY_BUFFER, r.segmentInstances);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(r.segments.size() * sizeof(SegmentVertex)), r.segments.data(),
                     GL_STREAM_DRAW);
        glBindVertexArray(r.segmentVao);
        glDrawArraysInstanced(GL_TRIANGLES, 0, 6, static_cast<GLsizei>(r.segments.size()));
    }

    // Particles on top.
    r.discs.clear();
    for (const DiscInstance& d : frame.discs) {
        DiscVertex v;
        put(v.center, d.center);
        v.radius = d.radius;
        put(v.fill, d.fill);
        put(v.outline, d.outline);
        v.outlineWidth = d.outlineWidth;
        r.discs.push_back(v);
    }
    if (!r.discs.empty()) {
        glUseProgram(r.discProgram);
        glUniformMatrix4fv(glGetUniformLocation(r.discProgram, "viewProjection"), 1, GL_FALSE, viewProjection.data());
        glUniform2fv(glGetUniformLocation(r.discProgram, "viewport"), 1, viewport);
        glBindBuffer(GL_ARRAY_BUFFER, r.discInstances);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(r.discs.size() * sizeof(DiscVertex)), r.discs.data(),
                     GL_STREAM_DRAW);
        glBindVertexArray(r.discVao);
        glDrawArraysInstanced(GL_TRIANGLES, 0, 6, static_cast<GLsizei>(r.discs.size()));
    }
    glBindVertexArray(0);
    glUseProgram(0);
    glDisable(GL_DEPTH_TEST);
}

std::vector<std::uint8_t> readFramebuffer(int width, int height) {
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(width) * height * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    // OpenGL's rows go bottom up; images go top down.
    const std::size_t row = static_cast<std::size_t>(width) * 4;
    std::vector<std::uint8_t> line(row);
    for (int y = 0; y < height / 2; ++y) {
        std::uint8_t* top = pixels.data() + y * row;
        std::uint8_t* bottom = pixels.data() + (height - 1 - y) * row;
        std::copy(top, top + row, line.begin());
        std::copy(bottom, bottom + row, top);
        std::copy(line.begin(), line.end(), bottom);
    }
    for (std::size_t i = 3; i < pixels.size(); i += 4) pixels[i] = 255;  // an opaque picture
    return pixels;
}

void saveFramebufferPng(const std::filesystem::path& file, int width, int height) {
    const std::vector<std::uint8_t> pixels = readFramebuffer(width, height);
    if (!stbi_write_png(file.c_str(), width, height, 4, pixels.data(), width * 4))
        throw std::runtime_error("cannot write the screenshot " + file.string());
}

}  // namespace tinkerbox
