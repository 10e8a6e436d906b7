// The force fields' registry: every kind registered has every part the loader, the writer, the
// Solver panel, the editor and the builder read off it, and its ranges hold its own defaults.
#include "core/forces/ForceFieldKind.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/forces/Force.h"
#include "core/forces/Wind.h"

namespace tinkerbox {
namespace {

TEST(ForceFieldKind, EveryKindHasEveryPart) {
    ASSERT_FALSE(forceFieldKinds().empty());
    std::set<std::string_view> names;
    for (std::size_t i = 0; i < forceFieldKinds().size(); ++i) {
        const ForceFieldKind& kind = *forceFieldKinds()[i];
        SCOPED_TRACE(std::string(kind.name));
        EXPECT_FALSE(kind.name.empty());
        EXPECT_TRUE(names.insert(kind.name).second) << "two kinds named " << kind.name;
        EXPECT_FALSE(kind.label.empty());
        EXPECT_FALSE(kind.summary.empty());
        ASSERT_NE(kind.example, nullptr);
        ASSERT_NE(kind.make, nullptr);
        EXPECT_EQ(forceFieldIndex(kind), i);
        EXPECT_EQ(findForceFieldKind(kind.name), &kind);
        // Its default and its example are fields of its kind that a scene can hold.
        const ForceFieldSpec blank = defaultForceField(kind);
        EXPECT_EQ(&forceFieldKind(blank), &kind);
        EXPECT_EQ(forceFieldError(blank), "");
        EXPECT_EQ(&forceFieldKind(kind.example()), &kind);
        EXPECT_EQ(forceFieldError(kind.example()), "");
        // Every field has its key, label and help, no key twice, and each set is read back by get.
        std::set<std::string_view> keys;
        for (const ForceFieldVector& v : kind.vectors) {
            EXPECT_TRUE(keys.insert(v.key).second) << v.key;
            EXPECT_FALSE(v.label.empty() || v.help.empty()) << v.key;
            ForceFieldSpec spec = blank;
            v.set(spec, Vec3(1.5, -2.0, 0.25));
            EXPECT_EQ(v.get(spec), Vec3(1.5, -2.0, 0.25)) << v.key;
        }
        for (const ForceFieldParameter& p : kind.parameters) {
            EXPECT_TRUE(keys.insert(p.key).second) << p.key;
            EXPECT_FALSE(p.label.empty() || p.help.empty()) << p.key;
            EXPECT_LT(p.min, p.max) << p.key;
            ForceFieldSpec spec = blank;
            p.set(spec, p.max);
            EXPECT_EQ(p.get(spec), p.max) << p.key;
            EXPECT_EQ(forceFieldError(spec), "") << p.key;
        }
        // Its force, on one triangle of particles.
        const std::array<Index, 3> triangle = {0, 1, 2};
        EXPECT_NE(kind.make(kind.example(), std::span(&triangle, 1)), nullptr);
    }
}

// Out of range, a field is refused with its label and range; the first bad setting is named.
TEST(ForceFieldKind, AFieldOutOfItsRangeIsRefusedWithTheReason) {
    WindSettings wind;
    wind.frequency = -1.0;
    EXPECT_EQ(forceFieldError(wind), "gust rate (Hz) must be between 0 and 1e+50 (got -1)");
    wind.frequency = 1.0;
    wind.seed = 1ull << 40;
    EXPECT_EQ(forceFieldError(wind), "gust seed must be between 0 and 2147483647 (got 1099511627776)");
}

// The wind's kind makes the wind on exactly the surfaces given: one element per triangle.
TEST(ForceFieldKind, TheWindActsOnTheSurfacesItIsGiven) {
    const std::array<std::array<Index, 3>, 2> triangles = {{{0, 1, 2}, {1, 3, 2}}};
    const std::unique_ptr<Force> force = WindSettings::kind.make(WindSettings::kind.example(), triangles);
    const auto* wind = dynamic_cast<const Wind*>(force.get());
    ASSERT_NE(wind, nullptr);
    EXPECT_EQ(wind->elementCount(), 2);
    EXPECT_EQ(wind->settings(), std::get<WindSettings>(WindSettings::kind.example()));
}

}  // namespace
}  // namespace tinkerbox
