#pragma once
// What the program knows about a kind of constraint besides its rows: its name, how a scene
// file holds it (read with its checks, written back), the numbers the inspector edits with
// their ranges, how the view draws it and what it does to its anchors. Each constraint defines
// its kind next to its class, as its spec's `kind`; constraintKinds() lists them in the order of
// the ConstraintSpec variant, so a new constraint is its own files plus its entry there. The
// loader, the writer, the clipboard, the inspector, the scene view and picking go through the
// kind, never through a case per constraint.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/constraints/ConstraintSpec.h"
#include "core/math/Parameter.h"

namespace tinkerbox {

class Constraint;

// A constraint's entry in a scene file, as its reader sees it. The scene loader implements it
// over the file's JSON: every value is checked (in range, finite, an existing particle or body)
// and a failure names the file, the line and the field.
class ConstraintFields {
public:
    virtual ~ConstraintFields() = default;
    virtual bool has(std::string_view key) const = 0;
    // A particle index, or {"body": i, "point": [x, y, z]}.
    virtual Anchor anchor(std::string_view key) const = 0;
    // A particle index only.
    virtual Anchor particle(std::string_view key) const = 0;
    // [x, y, z] or [x, y], a place in the world.
    virtual Vec3 point(std::string_view key) const = 0;
    // Any non-zero vector, returned with unit length.
    virtual Vec3 direction(std::string_view key) const = 0;
    virtual double positive(std::string_view key) const = 0;
    // Where an anchor is, and how a body is turned, in the scene as written (for defaults).
    virtual Vec3 placeOf(const Anchor& anchor) const = 0;
    virtual Quat bodyOrientation(Index body) const = 0;
    // Refuses the entry, pointing at the field (at the whole entry when key is empty).
    [[noreturn]] virtual void fail(std::string_view key, const std::string& message) const = 0;
};

// A constraint's entry being written, in the order its writer gives the fields.
class ConstraintFieldWriter {
public:
    virtual ~ConstraintFieldWriter() = default;
    virtual void anchor(std::string_view key, const Anchor& anchor) = 0;
    virtual void vector(std::string_view key, const Vec3& value) = 0;
    virtual void number(std::string_view key, double value) = 0;
};

// How the view draws a constraint, besides the lines it draws between its anchors.
struct ConstraintFigure {
    enum class Link { Rod, Thin };  // a rod (thick, picked with the mouse) or a joint's thin line
    struct Circle {
        Vec3 center, normal;
        double radius;
    };
    struct Line {
        Vec3 point, direction;
    };
    Link link = Link::Thin;
    std::optional<Vec3> pivot = {};     // a fixed point its anchor is held to: drawn as a pin tied to the anchor
    std::optional<Circle> circle = {};  // a circle its anchor stays on
    std::optional<Line> guide = {};     // a line its anchor stays on
};

enum class ConstraintCapability : unsigned {
    // Its anchors coincide (a pin, a hinge): a particle pinned to a body moves with it.
    MakesAnchorsCoincide = 1u << 0,
};

using ConstraintParameter = Parameter<ConstraintSpec>;

struct ConstraintKind {
    std::string_view name;
    std::string_view summary = {};  // one line, for tooltips and documentation
    unsigned capabilities = 0;
    // Its fields in a scene file, besides "type".
    std::span<const std::string_view> keys = {};
    // Reads an entry whose keys are among `keys`; refuses it through fields.fail.
    ConstraintSpec (*read)(const ConstraintFields& fields) = nullptr;
    void (*write)(const ConstraintSpec& spec, ConstraintFieldWriter& out) = nullptr;
    // The numbers the inspector edits (a rod's length), with their ranges.
    std::span<const ConstraintParameter> parameters = {};
    ConstraintFigure (*figure)(const ConstraintSpec& spec) = nullptr;
    // Throws std::invalid_argument for a degenerate description (makeConstraint).
    std::unique_ptr<Constraint> (*make)(const ConstraintSpec& spec) = nullptr;

    bool has(ConstraintCapability c) const { return (capabilities & static_cast<unsigned>(c)) != 0; }
};

// Every kind, in the order of the ConstraintSpec variant.
std::span<const ConstraintKind* const> constraintKinds();
const ConstraintKind& constraintKind(const ConstraintSpec& spec);
// nullptr when no kind has that name.
const ConstraintKind* findConstraintKind(std::string_view name);
// "nail, rod, wire, ...", for error messages.
std::string constraintNameList();

// A kind's factory: its constraint made from its spec.
template <class Spec, class ConstraintOfKind>
std::unique_ptr<Constraint> makeConstraintOf(const ConstraintSpec& spec) {
    return std::make_unique<ConstraintOfKind>(std::get<Spec>(spec));
}

// For the kinds' readers: the one anchor of a nail, wire or slider, given as "particle" (an
// index) or "anchor" (a particle or a body point), not both.
Anchor readOneEnd(const ConstraintFields& fields);
// "particle 3", "body 1": an anchor's owner, for messages.
std::string describeAnchor(const Anchor& anchor);

}  // namespace tinkerbox
