// The constraints' registry: every kind registered has every part the loader, the writer, the
// inspector, the scene view and the factory read off it, and what its writer writes its reader
// reads back.
#include "core/constraints/ConstraintKind.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <variant>

#include "core/constraints/Constraint.h"

namespace tinkerbox {
namespace {

// A kind's fields as its writer gave them, served back to its reader.
using FieldValue = std::variant<Anchor, Vec3, double>;

class RecordedFields final : public ConstraintFields, public ConstraintFieldWriter {
public:
    void anchor(std::string_view key, const Anchor& a) override { put(key, a); }
    void vector(std::string_view key, const Vec3& v) override { put(key, v); }
    void number(std::string_view key, double value) override { put(key, value); }

    bool has(std::string_view key) const override { return fields_.count(std::string(key)) > 0; }
    Anchor anchor(std::string_view key) const override { return get<Anchor>(key); }
    Anchor particle(std::string_view key) const override { return get<Anchor>(key); }
    Vec3 point(std::string_view key) const override { return get<Vec3>(key); }
    Vec3 direction(std::string_view key) const override { return get<Vec3>(key); }
    double positive(std::string_view key) const override { return get<double>(key); }
    Vec3 placeOf(const Anchor& a) const override { return a.point + Vec3(a.index(), 0.0, 0.0); }
    Quat bodyOrientation(Index) const override { return Quat::Identity(); }
    [[noreturn]] void fail(std::string_view key, const std::string& message) const override {
        throw std::invalid_argument(std::string(key) + ": " + message);
    }

    const std::map<std::string, FieldValue>& fields() const { return fields_; }

private:
    void put(std::string_view key, FieldValue value) {
        EXPECT_TRUE(fields_.emplace(std::string(key), value).second) << key << " written twice";
    }
    template <class T>
    T get(std::string_view key) const {
        const auto it = fields_.find(std::string(key));
        if (it == fields_.end()) fail(key, "missing");
        return std::get<T>(it->second);
    }

    std::map<std::string, FieldValue> fields_;
};

// A spec of every kind, as a default spec whose anchors are points of different bodies
// (every kind accepts those; a hinge only those).
std::vector<ConstraintSpec> oneOfEachKind() {
    std::vector<ConstraintSpec> specs;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        (specs.push_back(std::variant_alternative_t<I, ConstraintSpec>{}), ...);
    }
    (std::make_index_sequence<std::variant_size_v<ConstraintSpec>>{});
    for (ConstraintSpec& spec : specs) {
        Index body = 0;
        forEachAnchor(spec, [&](Anchor& a) {
            a = Anchor::onBody(body, Vec3(0.1 * static_cast<double>(body), 0.2, 0.3));
            ++body;
        });
    }
    return specs;
}

TEST(ConstraintKind, EveryRegisteredKindHasEveryPart) {
    ASSERT_EQ(constraintKinds().size(), std::variant_size_v<ConstraintSpec>);
    std::set<std::string_view> names;
    for (const ConstraintSpec& spec : oneOfEachKind()) {
        const ConstraintKind& kind = constraintKind(spec);
        SCOPED_TRACE(std::string(kind.name));
        EXPECT_EQ(constraintKinds()[spec.index()], &kind) << "the registry is in the variant's order";
        EXPECT_FALSE(kind.name.empty());
        EXPECT_TRUE(names.insert(kind.name).second) << "a second kind of that name";
        EXPECT_EQ(findConstraintKind(kind.name), &kind);
        EXPECT_FALSE(kind.summary.empty()) << "the inspector's tooltip shows it";
        EXPECT_FALSE(kind.keys.empty());
        ASSERT_NE(kind.read, nullptr);
        ASSERT_NE(kind.write, nullptr);
        ASSERT_NE(kind.figure, nullptr);
        ASSERT_NE(kind.make, nullptr);

        // Written, every field is among its keys, once; read back, it is the same constraint.
        RecordedFields file;
        kind.write(spec, file);
        for (const auto& [key, value] : file.fields())
            EXPECT_NE(std::find(kind.keys.begin(), kind.keys.end(), key), kind.keys.end()) << key;
        EXPECT_EQ(kind.read(file), spec);

        const std::unique_ptr<Constraint> made = kind.make(spec);
        ASSERT_NE(made, nullptr);
        EXPECT_EQ(made->spec(), spec) << "the constraint made is of another kind or lost a field";
        int anchors = 0;
        forEachAnchor(spec, [&](const Anchor&) { ++anchors; });
        EXPECT_EQ(static_cast<std::size_t>(anchors), made->anchors().size());
        if (kind.figure(spec).link == ConstraintFigure::Link::Rod) {
            EXPECT_GE(anchors, 2) << "a rod is drawn and picked between anchors";
        }

        for (const ConstraintParameter& p : kind.parameters) {
            SCOPED_TRACE(std::string(p.key));
            EXPECT_FALSE(p.label.empty());
            EXPECT_FALSE(p.help.empty());
            ASSERT_NE(p.get, nullptr);
            ASSERT_NE(p.set, nullptr);
            EXPECT_LT(p.min, p.max);
            EXPECT_TRUE(p.accepts(p.get(spec))) << "the default is out of its own range";
            EXPECT_TRUE(file.has(p.key)) << "a parameter is a field of the file";
            // set and get reach the same field, which the file holds.
            for (const double value : {p.min, p.max}) {
                ConstraintSpec edited = spec;
                p.set(edited, value);
                EXPECT_EQ(p.get(edited), value);
                RecordedFields editedFile;
                kind.write(edited, editedFile);
                EXPECT_EQ(std::get<double>(editedFile.fields().at(std::string(p.key))), value);
            }
        }
    }
}

TEST(ConstraintKind, NamesAndWhatTheyDoToTheirAnchors) {
    EXPECT_EQ(constraintNameList(), "nail, rod, wire, slider, pin, hinge");
    EXPECT_EQ(findConstraintKind("weld"), nullptr);
    EXPECT_EQ(constraintName(RodSpec{0, 1, 1.0}), "rod");
    EXPECT_TRUE(PinSpec::kind.has(ConstraintCapability::MakesAnchorsCoincide));
    EXPECT_TRUE(HingeSpec::kind.has(ConstraintCapability::MakesAnchorsCoincide));
    EXPECT_FALSE(RodSpec::kind.has(ConstraintCapability::MakesAnchorsCoincide));
    // The view draws a nail's point, a wire's circle and a slider's line.
    EXPECT_EQ(NailSpec::kind.figure(NailSpec{0, Vec3(1, 2, 3)}).pivot, Vec3(1, 2, 3));
    const auto circle = WireSpec::kind.figure(WireSpec{0, Vec3(1, 0, 0), 2.0, Vec3::UnitY()}).circle;
    ASSERT_TRUE(circle);
    EXPECT_EQ(circle->radius, 2.0);
    EXPECT_EQ(circle->normal, Vec3::UnitY());
    EXPECT_TRUE(SliderSpec::kind.figure(SliderSpec{0, Vec3::Zero(), Vec3::UnitX()}).guide);
    EXPECT_EQ(RodSpec::kind.figure(RodSpec{0, 1, 1.0}).link, ConstraintFigure::Link::Rod);
}

// A nail, a wire or a slider names its one anchor as "particle" or as "anchor", not both.
TEST(ConstraintKind, OneEndIsAParticleOrAnAnchor) {
    RecordedFields both;
    both.anchor("particle", Anchor(0));
    both.anchor("anchor", Anchor(1));
    EXPECT_THROW(readOneEnd(both), std::invalid_argument);
    RecordedFields particle;
    particle.anchor("particle", Anchor(2));
    EXPECT_EQ(readOneEnd(particle), Anchor(2));
    EXPECT_EQ(describeAnchor(Anchor::onBody(3, Vec3::Zero())), "body 3");
}

}  // namespace
}  // namespace tinkerbox
