// The integrators' registry: every kind registered has every part the program reads off it,
// so the loader, the writer, the Solver panel, the CLI and the capability checks need no
// list of their own.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/integrators/Integrator.h"

namespace tinkerbox {
namespace {

TEST(IntegratorKind, EveryRegisteredKindHasEveryPart) {
    std::set<std::string_view> names, sections, options;
    ASSERT_FALSE(integratorKinds().empty());
    for (const IntegratorKind* kind : integratorKinds()) {
        SCOPED_TRACE(std::string(kind->name));
        EXPECT_FALSE(kind->name.empty());
        EXPECT_TRUE(names.insert(kind->name).second) << "a second kind of that name";
        EXPECT_FALSE(kind->summary.empty()) << "menus and --help show it";
        ASSERT_NE(kind->make, nullptr);
        const std::unique_ptr<Integrator> made = kind->make(IntegratorSettings{});
        ASSERT_NE(made, nullptr);
        EXPECT_EQ(&made->kind(), kind) << "the integrator made names another kind";
        EXPECT_EQ(findIntegratorKind(kind->name), kind);
        EXPECT_EQ(kind->section.empty(), kind->parameters.empty())
            << "parameters are read from and written to the kind's section";
        if (!kind->section.empty()) {
            EXPECT_TRUE(sections.insert(kind->section).second);
        }
        for (const IntegratorParameter& p : kind->parameters) {
            SCOPED_TRACE(std::string(p.key));
            EXPECT_FALSE(p.key.empty());
            EXPECT_FALSE(p.label.empty());
            EXPECT_FALSE(p.help.empty());
            EXPECT_TRUE(options.insert(p.option).second) << "tinkerbox-sim takes one option per parameter";
            ASSERT_NE(p.get, nullptr);
            ASSERT_NE(p.set, nullptr);
            EXPECT_LT(p.min, p.max);
            EXPECT_TRUE(p.accepts(p.get(IntegratorSettings{}))) << "the default is out of its own range";
            // set and get reach the same field: both ends of the range go in and come back.
            for (const double value : {p.min, p.max}) {
                IntegratorSettings settings;
                p.set(settings, value);
                EXPECT_EQ(p.get(settings), value);
                // ... and the settings the integrator is made from.
                EXPECT_NE(kind->make(settings), nullptr);
            }
        }
    }
}

TEST(IntegratorKind, NamesAndCapabilities) {
    EXPECT_EQ(findIntegratorKind("leapfrog"), nullptr);
    EXPECT_THROW(integratorKind("leapfrog"), std::invalid_argument);
    EXPECT_EQ(integratorNameList(),
              "euler, midpoint, rk4, implicit-euler, adaptive, symplectic-euler, verlet, projective");
    EXPECT_EQ(stiffStableIntegratorKind().name, "implicit-euler");
    EXPECT_TRUE(integratorKind("projective").has(IntegratorCapability::StableOnStiffSprings));
    EXPECT_FALSE(integratorKind("rk4").has(IntegratorCapability::StableOnStiffSprings));
    EXPECT_TRUE(integratorKind("adaptive").has(IntegratorCapability::ChoosesItsOwnSteps));
    EXPECT_FALSE(integratorKind("verlet").has(IntegratorCapability::ConjugateGradientSolve));
}

TEST(IntegratorKind, ParametersSayWhyAValueIsOutOfRange) {
    const IntegratorKind& implicit = integratorKind("implicit-euler");
    ASSERT_EQ(implicit.parameters.size(), 3u);
    const IntegratorParameter& tolerance = implicit.parameters[0];
    const IntegratorParameter& iterations = implicit.parameters[1];
    const IntegratorParameter& filter = implicit.parameters[2];
    EXPECT_EQ(tolerance.rangeError(1e-4), "");
    EXPECT_EQ(tolerance.rangeError(-1.0), "must be between 1e-16 and 1 (got -1)");
    EXPECT_NE(tolerance.rangeError(std::nan("")), "");
    EXPECT_EQ(iterations.rangeError(0.0), "must be between 1 and 1000000 (got 0)");
    EXPECT_EQ(iterations.rangeError(2.5), "must be a whole number (got 2.5)");
    EXPECT_EQ(filter.rangeError(1.0), "");
    EXPECT_EQ(filter.rangeError(0.5), "must be true or false");
}

}  // namespace
}  // namespace tinkerbox
