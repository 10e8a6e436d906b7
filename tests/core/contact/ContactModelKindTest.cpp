// The contact models' registry: every kind registered has every part the program reads off
// it, so the loader, the writer, the Solver panel, compare mode and tinkerbox-sim need no list
// of their own.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/contact/ContactModel.h"

namespace tinkerbox {
namespace {

TEST(ContactModelKind, EveryRegisteredKindHasEveryPart) {
    std::set<std::string_view> names, keys, options;
    ASSERT_FALSE(contactModelKinds().empty());
    for (const ContactModelKind* kind : contactModelKinds()) {
        SCOPED_TRACE(std::string(kind->name));
        EXPECT_FALSE(kind->name.empty());
        EXPECT_TRUE(names.insert(kind->name).second) << "a second kind of that name";
        EXPECT_FALSE(kind->summary.empty()) << "menus show it";
        ASSERT_NE(kind->make, nullptr);
        const std::unique_ptr<ContactModel> made = kind->make(ContactModelSettings{});
        ASSERT_NE(made, nullptr);
        EXPECT_EQ(&made->kind(), kind) << "the model made names another kind";
        EXPECT_EQ(findContactModelKind(kind->name), kind);
        for (const ContactModelParameter& p : kind->parameters) {
            SCOPED_TRACE(std::string(p.key));
            EXPECT_TRUE(keys.insert(p.key).second) << "a key of the settings read twice";
            EXPECT_TRUE(options.insert(p.option).second) << "tinkerbox-sim takes one option per parameter";
            EXPECT_FALSE(p.label.empty());
            EXPECT_FALSE(p.help.empty());
            ASSERT_NE(p.get, nullptr);
            ASSERT_NE(p.set, nullptr);
            EXPECT_TRUE(p.accepts(p.get(ContactModelSettings{}))) << "the default is out of its own range";
            for (const double value : {p.min, p.max}) {
                ContactModelSettings settings;
                p.set(settings, value);
                EXPECT_EQ(p.get(settings), value);
            }
        }
    }
    EXPECT_EQ(contactModelNameList(), "baraff, oba");
    EXPECT_EQ(findContactModelKind("penalty"), nullptr);
    EXPECT_THROW(makeContactModel("penalty"), std::invalid_argument);
}

}  // namespace
}  // namespace tinkerbox
