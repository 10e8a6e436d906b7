#pragma once
// What the program knows about a kind of shape: its name, how a scene file holds it (read with
// its checks, written back), the numbers the inspector edits with their ranges, its mass
// properties and support mapping, its hull (built once per body), and the solid that
// collision, picking and drawing see. Each shape defines its kind in its own file, as its
// struct's `kind`; shapeKinds() lists them in the order of the Shape variant, so a new shape is
// its own file plus its entry there. The layers above switch on a solid's geometry (a ball, a
// box or a hull: the primitives they have tests for), never on the kind.
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/bodies/ConvexHull.h"
#include "core/bodies/MassProperties.h"
#include "core/bodies/Shape.h"
#include "core/math/Parameter.h"

namespace tinkerbox {

// A shape's entry in a scene file ({"box": {...}}), as its reader sees it. The scene loader
// implements it over the file's JSON: every value is checked (finite, bounded) and a failure
// names the file, the line and the field. A missing key fails as "missing".
class ShapeFields {
public:
    virtual ~ShapeFields() = default;
    // [x, y, z] or [x, y].
    virtual Vec3 vector(std::string_view key) const = 0;
    virtual double positive(std::string_view key) const = 0;
    // A list of [x, y, z] or [x, y].
    virtual std::vector<Vec3> points(std::string_view key) const = 0;
    [[noreturn]] virtual void fail(std::string_view key, const std::string& message) const = 0;
};

// A shape's entry being written, in the order its writer gives the fields.
class ShapeFieldWriter {
public:
    virtual ~ShapeFieldWriter() = default;
    virtual void vector(std::string_view key, const Vec3& value) = 0;
    virtual void number(std::string_view key, double value) = 0;
    virtual void points(std::string_view key, std::span<const Vec3> points) = 0;
};

// What collision, picking and drawing see of a shape, in its frame: a ball about the origin, a
// box centred on it, or a convex hull. A new geometry is a row and a column of the contact
// detector's pair table, a ray test in picking and a figure in the scene view.
struct ShapeSolid {
    enum class Geometry { Ball, Box, Hull };
    Geometry geometry = Geometry::Ball;
    double radius = 0.0;               // a ball's
    Vec3 halfSize = Vec3::Zero();      // a box's
    const ConvexHull* hull = nullptr;  // a hull's (the body's, which outlives the solid)
};

using ShapeParameter = Parameter<Shape>;

struct ShapeKind {
    std::string_view name;          // its key in a scene file, its name in the inspector
    std::string_view summary = {};  // one line, for tooltips and documentation
    // Its fields in a scene file.
    std::span<const std::string_view> keys = {};
    // Reads an entry whose keys are among `keys`; refuses it through fields.fail.
    Shape (*read)(const ShapeFields& fields) = nullptr;
    void (*write)(const Shape& shape, ShapeFieldWriter& out) = nullptr;
    // The numbers the inspector edits (a box's edges, a sphere's radius), with their ranges.
    std::span<const ShapeParameter> parameters = {};
    // Why the shape has no volume (an edge not positive, points with no hull), or empty.
    std::string (*check)(const Shape& shape) = nullptr;
    // Its convex hull, for a shape that is one; nullptr for the others. Throws
    // std::invalid_argument when check would refuse it.
    std::shared_ptr<const ConvexHull> (*hull)(const Shape& shape) = nullptr;
    // For unit density (MassProperties.h); hull: the one `hull` built, or nullptr to build it.
    MassProperties (*massProperties)(const Shape& shape, const ConvexHull* hull) = nullptr;
    // The farthest point along direction, and the radius of the ball about center that holds it
    // (support and boundingRadius below).
    Vec3 (*support)(const Shape& shape, const Vec3& direction) = nullptr;
    double (*boundingRadius)(const Shape& shape, const Vec3& center) = nullptr;
    // hull: the one `hull` built (for a hull), which the solid points to.
    ShapeSolid (*solid)(const Shape& shape, const ConvexHull* hull) = nullptr;
};

// Every kind, in the order of the Shape variant.
std::span<const ShapeKind* const> shapeKinds();
const ShapeKind& shapeKind(const Shape& shape);
// nullptr when no kind has that name.
const ShapeKind* findShapeKind(std::string_view name);
// "box, sphere, convex", for error messages.
std::string shapeNameList();
// Why shape can be no body's: a number out of its range ("radius (m) must be between ..."), or
// its kind's check; empty when it can.
std::string shapeError(const Shape& shape);

// What contact detection asks of a shape, in the shape's own frame: its farthest point in a
// direction (the support mapping of Gilbert, Johnson and Keerthi, "A Fast Procedure for
// Computing the Distance Between Complex Objects in Three-Dimensional Space", IEEE Journal of
// Robotics and Automation 4(2), 1988), which need not be unit: a zero direction gives a point of
// the surface; a ConvexShape scans its points and throws std::invalid_argument when it has none.
Vec3 support(const Shape& shape, const Vec3& direction);
// The largest distance from center to a point of the shape: with the centre of mass as center,
// the bounding sphere that moves with the body.
double boundingRadius(const Shape& shape, const Vec3& center);

}  // namespace tinkerbox
