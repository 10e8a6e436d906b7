#pragma once
// A built-in example by name, failing the test (and giving an empty scene) when there is none.
#include <gtest/gtest.h>

#include <string_view>

#include "scene/ExampleScenes.h"

namespace tinkerbox::test {

inline Scene example(std::string_view name) {
    const ExampleScene* e = findExampleScene(name);
    EXPECT_NE(e, nullptr) << name;
    return e ? e->make() : Scene{};
}

}  // namespace tinkerbox::test
