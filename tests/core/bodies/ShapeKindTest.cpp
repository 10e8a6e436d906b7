// Support points (Gilbert, Johnson and Keerthi 1988) and bounding radii against the shapes'
// closed forms and brute force over their extreme points.
#include "core/bodies/ShapeKind.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

namespace tinkerbox {
namespace {

TEST(ShapeGeometry, BoxSupportIsTheCornerOnTheDirectionsSide) {
    const Shape box = BoxShape{Vec3(2.0, 4.0, 6.0)};
    EXPECT_EQ(support(box, Vec3(0.3, -2.0, 0.1)), Vec3(1.0, -2.0, 3.0));
    EXPECT_EQ(support(box, Vec3(-1.0, 0.0, -0.5)), Vec3(-1.0, 2.0, -3.0));  // a tie goes to +size/2
}

TEST(ShapeGeometry, SphereSupportIsOnTheRayOfTheDirection) {
    const Shape sphere = SphereShape{0.5};
    EXPECT_TRUE(support(sphere, Vec3(3.0, 0.0, -4.0)).isApprox(Vec3(0.3, 0.0, -0.4), 1e-15));
    EXPECT_NEAR(support(sphere, Vec3::Zero()).norm(), 0.5, 1e-15);
}

TEST(ShapeGeometry, ConvexSupportIsTheFarthestPoint) {
    const Shape convex = ConvexShape{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 2, 0), Vec3(0, 0, 3), Vec3(0.2, 0.2, 0.2)}};
    EXPECT_EQ(support(convex, Vec3(1, 0.4, 0.3)), Vec3(1, 0, 0));  // 1 > 0.8, 0.9
    EXPECT_EQ(support(convex, Vec3(1, 0.4, 0.4)), Vec3(0, 0, 3));  // 1.2
    EXPECT_EQ(support(convex, Vec3(-1, -1, -1)), Vec3(0, 0, 0));
    EXPECT_THROW(support(Shape{ConvexShape{}}, Vec3::UnitX()), std::invalid_argument);
}

// Over many directions no point of the shape is farther than the bounding radius, and the
// farthest corner reaches it.
TEST(ShapeGeometry, BoundingRadiusReachesTheFarthestPoint) {
    const Vec3 center(0.1, -0.3, 0.2);
    const Shape box = BoxShape{Vec3(1.0, 2.0, 3.0)};
    EXPECT_NEAR(boundingRadius(box, center), Vec3(0.6, 1.3, 1.7).norm(), 1e-15);  // the corner (-0.5, 1, -1.5)
    EXPECT_NEAR(boundingRadius(SphereShape{0.5}, center), 0.5 + center.norm(), 1e-15);
    const Shape convex = ConvexShape{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 2, 0), Vec3(0, 0, 3)}};
    EXPECT_NEAR(boundingRadius(convex, center), (Vec3(0, 0, 3) - center).norm(), 1e-15);

    std::mt19937 random(2);
    std::normal_distribution<double> gauss;
    for (const Shape& shape : {box, Shape{SphereShape{0.5}}, convex}) {
        const double radius = boundingRadius(shape, center);
        double farthest = 0.0;
        for (int i = 0; i < 2000; ++i) {
            const Vec3 x = support(shape, Vec3(gauss(random), gauss(random), gauss(random)));
            EXPECT_LE((x - center).norm(), radius * (1.0 + 1e-15));
            farthest = std::max(farthest, (x - center).norm());
        }
        EXPECT_GT(farthest, 0.99 * radius);
    }
}

// A kind's fields as its writer gave them, served back to its reader.
class RecordedShapeFields final : public ShapeFields, public ShapeFieldWriter {
public:
    void vector(std::string_view key, const Vec3& v) override { put(key, v); }
    void number(std::string_view key, double value) override { put(key, value); }
    void points(std::string_view key, std::span<const Vec3> points) override {
        put(key, std::vector<Vec3>(points.begin(), points.end()));
    }

    Vec3 vector(std::string_view key) const override { return get<Vec3>(key); }
    double positive(std::string_view key) const override { return get<double>(key); }
    std::vector<Vec3> points(std::string_view key) const override { return get<std::vector<Vec3>>(key); }
    [[noreturn]] void fail(std::string_view key, const std::string& message) const override {
        throw std::invalid_argument(std::string(key) + ": " + message);
    }
    std::set<std::string> keys() const {
        std::set<std::string> out;
        for (const auto& [key, unused] : fields_) out.insert(key);
        return out;
    }

private:
    using Value = std::variant<Vec3, double, std::vector<Vec3>>;
    void put(std::string_view key, Value value) {
        EXPECT_TRUE(fields_.emplace(std::string(key), std::move(value)).second) << key << " written twice";
    }
    template <class T>
    T get(std::string_view key) const {
        const auto it = fields_.find(std::string(key));
        if (it == fields_.end()) fail(key, "missing");
        return std::get<T>(it->second);
    }
    std::map<std::string, Value> fields_;
};

// A shape of every kind that is no default: a box, a ball and a tetrahedron.
std::vector<Shape> oneShapeOfEachKind() {
    std::vector<Shape> shapes = {BoxShape{Vec3(0.5, 1.0, 2.0)}, SphereShape{0.75},
                                 ConvexShape{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 2, 0), Vec3(0, 0, 3)}}};
    EXPECT_EQ(shapes.size(), shapeKinds().size());
    for (std::size_t i = 0; i < shapes.size(); ++i) EXPECT_EQ(shapes[i].index(), i);
    return shapes;
}

TEST(ShapeKind, EveryKindHasEveryPartAndItsWriterAndReaderAgree) {
    std::set<std::string_view> names;
    for (const Shape& shape : oneShapeOfEachKind()) {
        const ShapeKind& kind = shapeKind(shape);
        SCOPED_TRACE(std::string(kind.name));
        EXPECT_TRUE(names.insert(kind.name).second);
        EXPECT_EQ(findShapeKind(kind.name), &kind);
        EXPECT_EQ(shapeName(shape), kind.name);
        EXPECT_FALSE(kind.summary.empty());
        ASSERT_TRUE(kind.read && kind.write && kind.check && kind.massProperties && kind.support &&
                    kind.boundingRadius && kind.solid);
        // Written and read back, it is the same shape; its writer writes only its keys.
        RecordedShapeFields fields;
        kind.write(shape, fields);
        EXPECT_EQ(fields.keys(), std::set<std::string>(kind.keys.begin(), kind.keys.end()));
        EXPECT_EQ(kind.read(fields), shape);
        EXPECT_EQ(shapeError(shape), "");
        // Its hull, where it has one, gives the same mass properties as the shape alone, and its
        // solid is the geometry the layers above have tests for.
        const std::shared_ptr<const ConvexHull> hull = kind.hull ? kind.hull(shape) : nullptr;
        const MassProperties alone = kind.massProperties(shape, nullptr),
                             withHull = kind.massProperties(shape, hull.get());
        EXPECT_GT(alone.volume, 0.0);
        EXPECT_EQ(alone.volume, withHull.volume);
        EXPECT_EQ(alone.inertia, withHull.inertia);
        const ShapeSolid solid = kind.solid(shape, hull.get());
        switch (solid.geometry) {
            case ShapeSolid::Geometry::Ball: EXPECT_GT(solid.radius, 0.0); break;
            case ShapeSolid::Geometry::Box: EXPECT_GT(solid.halfSize.minCoeff(), 0.0); break;
            case ShapeSolid::Geometry::Hull:
                EXPECT_EQ(solid.hull, hull.get());
                EXPECT_NE(hull, nullptr);
                break;
        }
        // Each number the inspector edits is read back by get, and its range refuses 0.
        for (const ShapeParameter& p : kind.parameters) {
            EXPECT_FALSE(p.label.empty() || p.help.empty()) << p.label;
            Shape edited = shape;
            p.set(edited, 2.5);
            EXPECT_EQ(p.get(edited), 2.5) << p.label;
            EXPECT_EQ(shapeError(edited), "") << p.label;
            p.set(edited, 0.0);
            EXPECT_NE(shapeError(edited), "") << p.label;
        }
    }
}

// A reader refuses what has no volume, at the field, with the loader's words.
TEST(ShapeKind, ReadersRefuseShapesWithoutVolume) {
    const auto refusal = [](const Shape& shape) {
        RecordedShapeFields fields;
        shapeKind(shape).write(shape, fields);
        try {
            shapeKind(shape).read(fields);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_EQ(refusal(BoxShape{Vec3(1, -2, 1)}), "size: edge lengths must be positive (got -2)");
    EXPECT_EQ(refusal(ConvexShape{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}}),
              "points: a convex hull needs at least 4 points, got 3");
    EXPECT_THROW(ConvexShape::kind.hull(ConvexShape{}), std::invalid_argument);
}

}  // namespace
}  // namespace tinkerbox
