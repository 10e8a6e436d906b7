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

struct BoxVertex {  // one per box
    float position[3];
    float orientation[4];  // x, y, z, w
    float size[3];
    float fill[4];
    float outline[4];
    float outlineWidth;
    float flags[2];  // selected, fixed
};

struct MeshVertex {  // hull triangles, in the world
    float position[3];
    float normal[3];
    float fill[4];
    float flags[2];
};

struct SurfaceVertex {  // cloth surfaces, in the world
    float position[3];
    float normal[3];
};

struct SphereVertex {  // one per sphere
    float center[3];
    float radius;
    float orientation[4];
    float fill[4];
    float outline[4];
    float outlineWidth;
    float flags[2];
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

void put(float* out, const Eigen::Quaterniond& q) {
    out[0] = static_cast<float>(q.x());
    out[1] = static_cast<float>(q.y());
    out[2] = static_cast<float>(q.z());
    out[3] = static_cast<float>(q.w());
}

void putFlags(float* out, const BodyInstance& body) {
    out[0] = body.selected ? 1.0f : 0.0f;
    out[1] = body.fixed ? 1.0f : 0.0f;
}

// The faces of the unit cube [-0.5, 0.5]^3, counter-clockwise seen from outside: six
// floats a vertex, corner then face normal.
std::vector<float> unitCubeFaces() {
    std::vector<float> out;
    for (int axis = 0; axis < 3; ++axis)
        for (double sign : {-1.0, 1.0}) {
            Vec3 n = Vec3::Zero();
            n[axis] = sign;
            Vec3 t1 = Vec3::Zero();
            t1[(axis + 1) % 3] = 1.0;
            const Vec3 t2 = n.cross(t1);  // t1 x t2 = n
            const Vec3 corners[4] = {0.5 * (n - t1 - t2), 0.5 * (n + t1 - t2), 0.5 * (n + t1 + t2),
                                     0.5 * (n - t1 + t2)};
            for (int k : {0, 1, 2, 0, 2, 3}) {
                for (int i = 0; i < 3; ++i) out.push_back(static_cast<float>(corners[k][i]));
                for (int i = 0; i < 3; ++i) out.push_back(static_cast<float>(n[i]));
            }
        }
    return out;
}

// A light over the viewer's right shoulder, fixed to the view so that 2D and 3D look alike.
Eigen::Vector3f viewLight(const Camera& camera) {
    const Mat4 view = camera.view();
    const Vec3 right = view.block<1, 3>(0, 0).transpose(), up = view.block<1, 3>(1, 0).transpose(),
               back = view.block<1, 3>(2, 0).transpose();
    return (0.35 * right + 0.75 * up + 0.55 * back).normalized().cast<float>();
}

constexpr Color kSelectedOutline{1.00f, 0.90f, 0.20f, 1.0f};
constexpr float kSelectedExtraWidth = 2.0f;  // pixels

Color outlineColor(const BodyInstance& body) { return body.selected ? kSelectedOutline : body.outline; }
float outlineWidth(const BodyInstance& body) {
    return body.outlineWidth + (body.selected ? kSelectedExtraWidth : 0.0f);
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
constexpr Color kSnapGrid{0.35f, 0.70f, 0.95f, 0.22f};
constexpr double kSnapGridPixels = 6.0;  // closer snap grid lines are thinned to multiples of the spacing

// The world rectangle a 2D view shows (z = 0).
void viewBounds2D(const Camera& camera, double& x0, double& x1, double& y0, double& y1) {
    const double halfW = 0.5 * camera.width() * camera.pixelSize(), halfH = 0.5 * camera.height() * camera.pixelSize();
    x0 = camera.center2D().x() - halfW;
    x1 = camera.center2D().x() + halfW;
    y0 = camera.center2D().y() - halfH;
    y1 = camera.center2D().y() + halfH;
}

// Grid lines: in 2D on z = 0, a power of ten near 80 pixels apart with minor lines at a
// tenth (when they are not too dense), and the snap grid when there is one (every line, or
// every few when they would be closer than kSnapGridPixels); in 3D on the ground
// y = groundLevel around the view's target, metres and tenths.
template <class AddSegment>
void addGrid(const Camera& camera, double groundLevel, double snapSpacing, AddSegment&& addSegment) {
    if (camera.mode() == Camera::Mode::TwoD) {
        double x0, x1, y0, y1;
        viewBounds2D(camera, x0, x1, y0, y1);
        if (snapSpacing > 0.0) {
            const double spacing =
                snapSpacing * std::max(1.0, std::ceil(kSnapGridPixels * camera.pixelSize() / snapSpacing));
            for (double x = std::ceil(x0 / spacing) * spacing; x <= x1; x += spacing)
                addSegment({x, y0, 0.0}, {x, y1, 0.0}, 1.0f, kSnapGrid, false);
            for (double y = std::ceil(y0 / spacing) * spacing; y <= y1; y += spacing)
                addSegment({x0, y, 0.0}, {x1, y, 0.0}, 1.0f, kSnapGrid, false);
        }
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
    const Vec3 a = centre - kHalf * u - kHalf * w, b = centre + kHalf * u - kHalf * w,
               c = centre + kHalf * u + kHalf * w, d = centre - kHalf * u + kHalf * w;
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
    GLuint discProgram = 0, segmentProgram = 0, flatProgram = 0, boxProgram = 0, meshProgram = 0, sphereProgram = 0,
           surfaceProgram = 0;
    GLuint discVao = 0, segmentVao = 0, flatVao = 0, boxVao = 0, meshVao = 0, sphereVao = 0, surfaceVao = 0;
    GLuint quadBuffer = 0, segmentQuadBuffer = 0, discInstances = 0, segmentInstances = 0, flatVertices = 0,
           cubeBuffer = 0, boxInstances = 0, meshVertices = 0, sphereInstances = 0, surfaceVertices = 0,
           surfaceIndices = 0;
    GLsizei cubeVertexCount = 0;
    std::vector<DiscVertex> discs;
    std::vector<SegmentVertex> segments;
    std::vector<FlatVertex> triangles;
    std::vector<FlatVertex> lines;  // thin segments of dense models, two vertices each
    std::vector<BoxVertex> boxes;
    std::vector<MeshVertex> meshTriangles;
    std::vector<SphereVertex> spheres;
    std::vector<SegmentVertex> bodyEdges;
    std::vector<FlatVertex> bodyLines;
    std::vector<SurfaceVertex> surfaceData;
    std::vector<GLuint> surfaceElements;

    ~Impl() {
        for (GLuint program :
             {discProgram, segmentProgram, flatProgram, boxProgram, meshProgram, sphereProgram, surfaceProgram})
            glDeleteProgram(program);
        const GLuint arrays[] = {discVao, segmentVao, flatVao, boxVao, meshVao, sphereVao, surfaceVao};
        glDeleteVertexArrays(static_cast<GLsizei>(std::size(arrays)), arrays);
        const GLuint buffers[] = {quadBuffer,      segmentQuadBuffer, discInstances, segmentInstances,
                                  flatVertices,    cubeBuffer,        boxInstances,  meshVertices,
                                  sphereInstances, surfaceVertices,   surfaceIndices};
        glDeleteBuffers(static_cast<GLsizei>(std::size(buffers)), buffers);
    }

    // The eye, the view direction and whether the view is 2D (orthographic), for shaders
    // that work out depths or rays in the world.
    static void setViewUniforms(GLuint program, const Camera& camera) {
        const Eigen::Vector3f eye = camera.eye().cast<float>(), forward = camera.forward().cast<float>();
        glUniform3fv(glGetUniformLocation(program, "eye"), 1, eye.data());
        glUniform3fv(glGetUniformLocation(program, "forward"), 1, forward.data());
        glUniform1f(glGetUniformLocation(program, "orthographic"), camera.mode() == Camera::Mode::TwoD ? 1.0f : 0.0f);
    }

    // 1-pixel lines, two vertices each.
    void drawLines(const std::vector<FlatVertex>& list, const Eigen::Matrix4f& viewProjection) {
        if (list.empty()) return;
        glUseProgram(flatProgram);
        glUniformMatrix4fv(glGetUniformLocation(flatProgram, "viewProjection"), 1, GL_FALSE, viewProjection.data());
        glBindBuffer(GL_ARRAY_BUFFER, flatVertices);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(list.size() * sizeof(FlatVertex)), list.data(),
                     GL_STREAM_DRAW);
        glBindVertexArray(flatVao);
        glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(list.size()));
    }

    // Instanced quads of a pixel width (segment.vert), depth tested where the caller enabled it;
    // lit as fibres by their tangents when the camera is given (hair strands).
    void drawSegments(const std::vector<SegmentVertex>& list, const Eigen::Matrix4f& viewProjection,
                      const float viewport[2], const Camera* fibresSeenBy = nullptr) {
        if (list.empty()) return;
        glUseProgram(segmentProgram);
        glUniformMatrix4fv(glGetUniformLocation(segmentProgram, "viewProjection"), 1, GL_FALSE, viewProjection.data());
        glUniform2fv(glGetUniformLocation(segmentProgram, "viewport"), 1, viewport);
        glUniform1f(glGetUniformLocation(segmentProgram, "fibre"), fibresSeenBy ? 1.0f : 0.0f);
        if (fibresSeenBy) {
            const Eigen::Vector3f light = viewLight(*fibresSeenBy);
            glUniform3fv(glGetUniformLocation(segmentProgram, "lightDirection"), 1, light.data());
            setViewUniforms(segmentProgram, *fibresSeenBy);
        }
        glBindBuffer(GL_ARRAY_BUFFER, segmentInstances);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(list.size() * sizeof(SegmentVertex)), list.data(),
                     GL_STREAM_DRAW);
        glBindVertexArray(segmentVao);
        glDrawArraysInstanced(GL_TRIANGLES, 0, 6, static_cast<GLsizei>(list.size()));
    }

    // surfaceLift: how much nearer the viewer the frame's surfaces are drawn (disc.vert).
    void drawDiscs(const std::vector<DiscInstance>& list, const Camera& camera, double surfaceLift,
                   const Eigen::Matrix4f& viewProjection, const float viewport[2]) {
        if (list.empty()) return;
        discs.clear();
        for (const DiscInstance& d : list) {
            DiscVertex v;
            put(v.center, d.center);
            v.radius = d.radius;
            put(v.fill, d.fill);
            put(v.outline, d.outline);
            v.outlineWidth = d.outlineWidth;
            discs.push_back(v);
        }
        glUseProgram(discProgram);
        glUniformMatrix4fv(glGetUniformLocation(discProgram, "viewProjection"), 1, GL_FALSE, viewProjection.data());
        glUniform2fv(glGetUniformLocation(discProgram, "viewport"), 1, viewport);
        setViewUniforms(discProgram, camera);
        glUniform1f(glGetUniformLocation(discProgram, "pixelSize"), static_cast<float>(camera.pixelSize()));
        glUniform1f(glGetUniformLocation(discProgram, "pixelSizePerDistance"),
                    static_cast<float>(camera.pixelSizePerDistance()));
        glUniform1f(glGetUniformLocation(discProgram, "surfaceLift"), static_cast<float>(surfaceLift));
        glBindBuffer(GL_ARRAY_BUFFER, discInstances);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(discs.size() * sizeof(DiscVertex)), discs.data(),
                     GL_STREAM_DRAW);
        glBindVertexArray(discVao);
        glDrawArraysInstanced(GL_TRIANGLES, 0, 6, static_cast<GLsizei>(discs.size()));
    }

    void drawBodies(const std::vector<BodyInstance>& bodies, const Camera& camera,
                    const Eigen::Matrix4f& viewProjection, const float viewport[2]);
    void drawSurfaces(const std::vector<SurfaceInstance>& surfaces, const Camera& camera,
                      const Eigen::Matrix4f& viewProjection);
};

// Opaque and depth tested, as bodies are. A surface whose normals do not match its vertices
// has nothing to light it by and is left out, as is a triangle with an index out of range.
void Renderer::Impl::drawSurfaces(const std::vector<SurfaceInstance>& surfaces, const Camera& camera,
                                  const Eigen::Matrix4f& viewProjection) {
    if (surfaces.empty()) return;
    const Eigen::Vector3f light = viewLight(camera);
    glEnable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glUseProgram(surfaceProgram);
    glUniformMatrix4fv(glGetUniformLocation(surfaceProgram, "viewProjection"), 1, GL_FALSE, viewProjection.data());
    glUniform3fv(glGetUniformLocation(surfaceProgram, "lightDirection"), 1, light.data());
    setViewUniforms(surfaceProgram, camera);
    glBindVertexArray(surfaceVao);
    for (const SurfaceInstance& surface : surfaces) {
        if (surface.normals.size() != surface.vertices.size() || surface.triangles.empty()) continue;
        surfaceData.clear();
        for (std::size_t i = 0; i < surface.vertices.size(); ++i) {
            SurfaceVertex v;
            put(v.position, surface.vertices[i]);
            put(v.normal, surface.normals[i]);
            surfaceData.push_back(v);
        }
        surfaceElements.clear();
        const int count = static_cast<int>(surface.vertices.size());
        for (const auto& t : surface.triangles)
            if (std::all_of(t.begin(), t.end(), [&](int i) { return i >= 0 && i < count; }))
                surfaceElements.insert(surfaceElements.end(), t.begin(), t.end());
        float front[4], back[4];
        put(front, surface.front);
        put(back, surface.back);
        glUniform4fv(glGetUniformLocation(surfaceProgram, "frontColor"), 1, front);
        glUniform4fv(glGetUniformLocation(surfaceProgram, "backColor"), 1, back);
        glUniform1f(glGetUniformLocation(surfaceProgram, "lift"), static_cast<float>(surface.lift));
        glBindBuffer(GL_ARRAY_BUFFER, surfaceVertices);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(surfaceData.size() * sizeof(SurfaceVertex)),
                     surfaceData.data(), GL_STREAM_DRAW);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(surfaceElements.size() * sizeof(GLuint)),
                     surfaceElements.data(), GL_STREAM_DRAW);
        glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(surfaceElements.size()), GL_UNSIGNED_INT, nullptr);
    }
    glEnable(GL_BLEND);
}

// Boxes and spheres are instanced and draw their own outlines (a box's per face, 5,000 boxes'
// 60,000 edges as quads would cost llvmpipe more than their faces). Hull triangles and
// their edges are placed in the world here; hull faces are pushed back in depth a little
// so that the outlines on their edges win the depth test.
void Renderer::Impl::drawBodies(const std::vector<BodyInstance>& bodies, const Camera& camera,
                                const Eigen::Matrix4f& viewProjection, const float viewport[2]) {
    boxes.clear();
    meshTriangles.clear();
    spheres.clear();
    bodyEdges.clear();
    bodyLines.clear();
    // Many bodies draw their thin outlines as 1-pixel lines, as dense models their springs.
    std::size_t edgeCount = 0;
    for (const BodyInstance& body : bodies)
        if (body.shape == BodyInstance::Shape::Mesh && body.mesh) edgeCount += body.mesh->edges.size();
    const bool dense = edgeCount > kDenseSegmentCount;
    const auto addEdge = [&](const Vec3& a, const Vec3& b, const BodyInstance& body) {
        if (dense && !body.selected && isThin(body.outlineWidth, false)) {
            FlatVertex v;
            put(v.color, body.outline);
            put(v.position, a);
            bodyLines.push_back(v);
            put(v.position, b);
            bodyLines.push_back(v);
            return;
        }
        SegmentVertex v;
        put(v.a, a);
        put(v.b, b);
        v.width = outlineWidth(body);
        put(v.color, outlineColor(body));
        v.dashed = 0.0f;
        bodyEdges.push_back(v);
    };
    for (const BodyInstance& body : bodies) {
        const Eigen::Quaterniond q = body.orientation.normalized();
        switch (body.shape) {
            case BodyInstance::Shape::Box: {
                BoxVertex v;
                put(v.position, body.position);
                put(v.orientation, q);
                put(v.size, body.size);
                put(v.fill, body.fill);
                put(v.outline, outlineColor(body));
                v.outlineWidth = outlineWidth(body);
                putFlags(v.flags, body);
                boxes.push_back(v);
                break;
            }
            case BodyInstance::Shape::Sphere: {
                SphereVertex v;
                put(v.center, body.position);
                v.radius = static_cast<float>(body.radius);
                put(v.orientation, q);
                put(v.fill, body.fill);
                put(v.outline, outlineColor(body));
                v.outlineWidth = outlineWidth(body);
                putFlags(v.flags, body);
                spheres.push_back(v);
                break;
            }
            case BodyInstance::Shape::Mesh: {
                // A mesh not made by makeBodyMesh may lack its normals: nothing to light it by.
                if (!body.mesh || body.mesh->normals.size() != body.mesh->triangles.size()) break;
                const BodyMesh& mesh = *body.mesh;
                const Mat3 rotation = q.toRotationMatrix();
                for (std::size_t f = 0; f < mesh.triangles.size(); ++f) {
                    MeshVertex v;
                    put(v.normal, Vec3(rotation * mesh.normals[f]));
                    put(v.fill, body.fill);
                    putFlags(v.flags, body);
                    for (int i : mesh.triangles[f]) {
                        put(v.position, Vec3(body.position + rotation * mesh.vertices[i]));
                        meshTriangles.push_back(v);
                    }
                }
                for (const auto& e : mesh.edges)
                    addEdge(body.position + rotation * mesh.vertices[e[0]],
                            body.position + rotation * mesh.vertices[e[1]], body);
                break;
            }
        }
    }

    const Eigen::Vector3f light = viewLight(camera);

    glEnable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    if (!boxes.empty()) {
        glEnable(GL_CULL_FACE);
        glUseProgram(boxProgram);
        glUniformMatrix4fv(glGetUniformLocation(boxProgram, "viewProjection"), 1, GL_FALSE, viewProjection.data());
        glUniform3fv(glGetUniformLocation(boxProgram, "lightDirection"), 1, light.data());
        setViewUniforms(boxProgram, camera);
        glBindBuffer(GL_ARRAY_BUFFER, boxInstances);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(boxes.size() * sizeof(BoxVertex)), boxes.data(),
                     GL_STREAM_DRAW);
        glBindVertexArray(boxVao);
        glDrawArraysInstanced(GL_TRIANGLES, 0, cubeVertexCount, static_cast<GLsizei>(boxes.size()));
        glDisable(GL_CULL_FACE);
    }
    if (!meshTriangles.empty()) {
        glEnable(GL_POLYGON_OFFSET_FILL);
        glPolygonOffset(1.0f, 2.0f);
        glUseProgram(meshProgram);
        glUniformMatrix4fv(glGetUniformLocation(meshProgram, "viewProjection"), 1, GL_FALSE, viewProjection.data());
        glUniform3fv(glGetUniformLocation(meshProgram, "lightDirection"), 1, light.data());
        glBindBuffer(GL_ARRAY_BUFFER, meshVertices);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(meshTriangles.size() * sizeof(MeshVertex)),
                     meshTriangles.data(), GL_STREAM_DRAW);
        glBindVertexArray(meshVao);
        glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(meshTriangles.size()));
        glDisable(GL_POLYGON_OFFSET_FILL);
    }
    if (!spheres.empty()) {
        glUseProgram(sphereProgram);
        glUniformMatrix4fv(glGetUniformLocation(sphereProgram, "viewProjection"), 1, GL_FALSE, viewProjection.data());
        setViewUniforms(sphereProgram, camera);
        glUniform1f(glGetUniformLocation(sphereProgram, "pixelSize"), static_cast<float>(camera.pixelSize()));
        glUniform1f(glGetUniformLocation(sphereProgram, "pixelSizePerDistance"),
                    static_cast<float>(camera.pixelSizePerDistance()));
        glUniform3fv(glGetUniformLocation(sphereProgram, "lightDirection"), 1, light.data());
        glBindBuffer(GL_ARRAY_BUFFER, sphereInstances);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(spheres.size() * sizeof(SphereVertex)), spheres.data(),
                     GL_STREAM_DRAW);
        glBindVertexArray(sphereVao);
        glDrawArraysInstanced(GL_TRIANGLES, 0, 6, static_cast<GLsizei>(spheres.size()));
    }
    glEnable(GL_BLEND);
    drawLines(bodyLines, viewProjection);
    drawSegments(bodyEdges, viewProjection, viewport);
}

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
    r.boxProgram = link(shaders::kBoxVert, shaders::kBoxFrag, "box");
    r.meshProgram = link(shaders::kMeshVert, shaders::kBodyFrag, "mesh");
    r.sphereProgram = link(shaders::kSphereVert, shaders::kSphereFrag, "sphere");
    r.surfaceProgram = link(shaders::kSurfaceVert, shaders::kSurfaceFrag, "surface");

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
    glGenVertexArrays(1, &r.boxVao);
    glGenVertexArrays(1, &r.meshVao);
    glGenVertexArrays(1, &r.sphereVao);
    glGenBuffers(1, &r.cubeBuffer);
    glGenBuffers(1, &r.boxInstances);
    glGenBuffers(1, &r.meshVertices);
    glGenBuffers(1, &r.sphereInstances);
    glGenVertexArrays(1, &r.surfaceVao);
    glGenBuffers(1, &r.surfaceVertices);
    glGenBuffers(1, &r.surfaceIndices);

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
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(FlatVertex),
                          reinterpret_cast<const void*>(offsetof(FlatVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(FlatVertex),
                          reinterpret_cast<const void*>(offsetof(FlatVertex, color)));

    const std::vector<float> cube = unitCubeFaces();
    r.cubeVertexCount = static_cast<GLsizei>(cube.size() / 6);
    glBindVertexArray(r.boxVao);
    glBindBuffer(GL_ARRAY_BUFFER, r.cubeBuffer);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(cube.size() * sizeof(float)), cube.data(), GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                          reinterpret_cast<const void*>(3 * sizeof(float)));
    glBindBuffer(GL_ARRAY_BUFFER, r.boxInstances);
    constexpr GLsizei boxStride = sizeof(BoxVertex);
    instanceAttribute(2, 3, boxStride, offsetof(BoxVertex, position));
    instanceAttribute(3, 4, boxStride, offsetof(BoxVertex, orientation));
    instanceAttribute(4, 3, boxStride, offsetof(BoxVertex, size));
    instanceAttribute(5, 4, boxStride, offsetof(BoxVertex, fill));
    instanceAttribute(6, 4, boxStride, offsetof(BoxVertex, outline));
    instanceAttribute(7, 1, boxStride, offsetof(BoxVertex, outlineWidth));
    instanceAttribute(8, 2, boxStride, offsetof(BoxVertex, flags));

    glBindVertexArray(r.meshVao);
    glBindBuffer(GL_ARRAY_BUFFER, r.meshVertices);
    constexpr GLsizei meshStride = sizeof(MeshVertex);
    const std::pair<GLint, std::size_t> meshAttributes[] = {{3, offsetof(MeshVertex, position)},
                                                            {3, offsetof(MeshVertex, normal)},
                                                            {4, offsetof(MeshVertex, fill)},
                                                            {2, offsetof(MeshVertex, flags)}};
    for (GLuint k = 0; k < 4; ++k) {
        glEnableVertexAttribArray(k);
        glVertexAttribPointer(k, meshAttributes[k].first, GL_FLOAT, GL_FALSE, meshStride,
                              reinterpret_cast<const void*>(meshAttributes[k].second));
    }

    bindInstancedQuad(r.sphereVao, r.quadBuffer, quad, r.sphereInstances);
    constexpr GLsizei sphereStride = sizeof(SphereVertex);
    instanceAttribute(1, 3, sphereStride, offsetof(SphereVertex, center));
    instanceAttribute(2, 1, sphereStride, offsetof(SphereVertex, radius));
    instanceAttribute(3, 4, sphereStride, offsetof(SphereVertex, orientation));
    instanceAttribute(4, 4, sphereStride, offsetof(SphereVertex, fill));
    instanceAttribute(5, 4, sphereStride, offsetof(SphereVertex, outline));
    instanceAttribute(6, 1, sphereStride, offsetof(SphereVertex, outlineWidth));
    instanceAttribute(7, 2, sphereStride, offsetof(SphereVertex, flags));

    // The element buffer is part of the vertex array's state.
    glBindVertexArray(r.surfaceVao);
    glBindBuffer(GL_ARRAY_BUFFER, r.surfaceVertices);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r.surfaceIndices);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(SurfaceVertex),
                          reinterpret_cast<const void*>(offsetof(SurfaceVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(SurfaceVertex),
                          reinterpret_cast<const void*>(offsetof(SurfaceVertex, normal)));
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
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthFunc(GL_LEQUAL);
    // 3D: the opaque bodies and cloths first, so that the translucent planes and the grid
    // drawn after them blend over what they hide.
    if (!twoD) {
        r.drawBodies(frame.bodies, camera, viewProjection, viewport);
        r.drawSurfaces(frame.surfaces, camera, viewProjection);
    }
    // 2D draws in order (planes, grid, bodies and cloths, wires, springs, particles); 3D tests depth.
    glEnable(GL_BLEND);
    if (twoD) glDisable(GL_DEPTH_TEST);
    else glEnable(GL_DEPTH_TEST);

    r.segments.clear();
    r.triangles.clear();
    r.lines.clear();
    const bool dense = static_cast<std::size_t>(std::count_if(
                           frame.segments.begin(), frame.segments.end(),
                           [](const SegmentInstance& s) { return isThin(s.width, s.dashed); })) > kDenseSegmentCount;
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
    // Draws and empties the segments gathered so far.
    const auto drawGathered = [&] {
        r.drawLines(r.lines, viewProjection);
        r.drawSegments(r.segments, viewProjection, viewport);
        r.lines.clear();
        r.segments.clear();
    };
    // In 3D an upward-facing plane is the ground and brings its own grid.
    const bool groundPlane = std::any_of(frame.planes.begin(), frame.planes.end(),
                                         [](const PlaneInstance& p) { return p.normal.normalized().y() > 0.9; });
    if (frame.grid && (twoD || !groundPlane)) addGrid(camera, frame.groundLevel, frame.snapSpacing, addSegment);
    for (const PlaneInstance& p : frame.planes) addPlane(camera, p, addSegment, addTriangle);
    if (!r.triangles.empty()) {
        glDepthMask(GL_FALSE);  // translucent surfaces do not hide the model behind them
        glUseProgram(r.flatProgram);
        glUniformMatrix4fv(glGetUniformLocation(r.flatProgram, "viewProjection"), 1, GL_FALSE, viewProjection.data());
        glBindBuffer(GL_ARRAY_BUFFER, r.flatVertices);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(r.triangles.size() * sizeof(FlatVertex)),
                     r.triangles.data(), GL_STREAM_DRAW);
        glBindVertexArray(r.flatVao);
        glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(r.triangles.size()));
        glDepthMask(GL_TRUE);
    }
    if (twoD) {
        // The grid and plane edges under the bodies and cloths, the model's segments over them.
        drawGathered();
        r.drawBodies(frame.bodies, camera, viewProjection, viewport);
        r.drawSurfaces(frame.surfaces, camera, viewProjection);
        glDisable(GL_DEPTH_TEST);
    }

    // Segments: the grid and plane edges above (3D), then wires (as polygons), springs, rods, gestures.
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
    drawGathered();
    // Hair strands: each piece in the colour of its middle, between root and tip.
    for (const StrandInstance& strand : frame.strands)
        for (std::size_t k = 0; k + 1 < strand.points.size(); ++k) {
            const float along = (static_cast<float>(k) + 0.5f) / static_cast<float>(strand.points.size() - 1);
            SegmentVertex v;
            put(v.a, strand.points[k]);
            put(v.b, strand.points[k + 1]);
            v.width = strand.width;
            put(v.color, mix(strand.root, strand.tip, along));
            v.dashed = 0.0f;
            r.segments.push_back(v);
        }
    r.drawSegments(r.segments, viewProjection, viewport, &camera);
    r.segments.clear();

    // Particles on top (in 3D, of what is nearer than them), then the bodies' markers on
    // top of everything.
    double surfaceLift = 0.0;
    for (const SurfaceInstance& surface : frame.surfaces) surfaceLift = std::max(surfaceLift, surface.lift);
    r.drawDiscs(frame.discs, camera, surfaceLift, viewProjection, viewport);
    glDisable(GL_DEPTH_TEST);
    for (const SegmentInstance& s : frame.overlaySegments) addSegment(s.a, s.b, s.width, s.color, s.dashed);
    drawGathered();
    r.drawDiscs(frame.overlayDiscs, camera, 0.0, viewProjection, viewport);
    glBindVertexArray(0);
    glUseProgram(0);
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
