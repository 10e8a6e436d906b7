#include "scene/SceneJson.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <optional>
#include <nlohmann/json.hpp>
#include <span>
#include <sstream>
#include <stdexcept>

#include "core/bodies/ConvexHull.h"
#include "core/bodies/MassProperties.h"
#include "core/bodies/RigidBodies.h"
#include "core/bodies/ShapeKind.h"
#include "core/constraints/ConstraintKind.h"
#include "core/contact/ContactModel.h"
#include "core/integrators/Integrator.h"
#include "scene/JsonLocations.h"

namespace tinkerbox {

namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

// Thrown while reading; turned into a SceneError once the location is known.
struct ValidationError {
    std::string path;
    std::string message;
};

std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string formatNumber(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

// A JSON value together with its path, with the checks the scene format needs.
class Node {
public:
    Node(const json& value, std::string path) : value_(value), path_(std::move(path)) {}

    const std::string& path() const { return path_; }
    [[noreturn]] void fail(const std::string& message) const { throw ValidationError{path_, message}; }

    // An object whose keys are all among the allowed ones.
    void expectObject(std::initializer_list<std::string_view> allowed) const {
        expectObject(std::span<const std::string_view>(allowed.begin(), allowed.size()));
    }
    void expectObject(std::span<const std::string_view> allowed) const {
        if (!value_.is_object()) fail("expected an object, got " + typeName());
        for (const auto& [key, unused] : value_.items()) {
            if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
            std::string_view closest;
            std::size_t best = 3;  // suggest only near misses
            for (std::string_view a : allowed) {
                if (const std::size_t d = editDistance(key, a); d < best) {
                    best = d;
                    closest = a;
                }
            }
            std::string message = "unknown key";
            if (!closest.empty()) {
                message.append(" (did you mean '").append(closest).append("'?)");
            } else {
                message.append(" (expected one of:");
                for (std::string_view a : allowed) message.append(" ").append(a);
                message.append(")");
            }
            throw ValidationError{childPath(key), message};
        }
    }

    bool has(std::string_view key) const { return value_.contains(key); }
    bool isObject() const { return value_.is_object(); }
    Node operator[](std::string_view key) const {
        if (!value_.contains(key)) throw ValidationError{childPath(key), "missing"};
        return Node(value_.at(std::string(key)), childPath(key));
    }

    std::size_t arraySize() const {
        if (!value_.is_array()) fail("expected an array, got " + typeName());
        return value_.size();
    }
    Node element(std::size_t i) const { return Node(value_.at(i), path_ + "[" + std::to_string(i) + "]"); }

    // Any finite number: for directions, whose length does not matter.
    double finiteNumber() const {
        if (!value_.is_number()) fail("expected a number, got " + typeName());
        const double v = value_.get<double>();
        if (!std::isfinite(v)) fail("must be a finite number");
        return v;
    }
    // A quantity: its magnitude is bounded, so that its squares and the energies it
    // enters stay finite.
    double number() const {
        const double v = finiteNumber();
        if (std::abs(v) > kMaxSceneMagnitude)
            fail("must be at most " + formatNumber(kMaxSceneMagnitude) + " in magnitude (got " + formatNumber(v) + ")");
        return v;
    }
    double numberAtLeast(double low) const {
        const double v = number();
        if (v < low) fail("must be at least " + formatNumber(low) + " (got " + formatNumber(v) + ")");
        return v;
    }
    // Positive quantities are divided by (masses, radii, time steps): they have a floor.
    double positive() const {
        const double v = number();
        if (!(v > 0.0)) fail("must be positive (got " + formatNumber(v) + ")");
        if (v < kMinScenePositive)
            fail("must be at least " + formatNumber(kMinScenePositive) + " (got " + formatNumber(v) + ")");
        return v;
    }
    long long integer() const {
        if (!value_.is_number_integer()) fail("expected an integer, got " + typeName());
        if (value_.is_number_unsigned()) {
            const auto u = value_.get<std::uint64_t>();
            if (u > static_cast<std::uint64_t>(std::numeric_limits<long long>::max()))
                fail("integer " + std::to_string(u) + " is too large");
        }
        return value_.get<long long>();
    }
    bool boolean() const {
        if (!value_.is_boolean()) fail("expected true or false, got " + typeName());
        return value_.get<bool>();
    }
    std::string string() const {
        if (!value_.is_string()) fail("expected a string, got " + typeName());
        return value_.get<std::string>();
    }
    // [x, y, z], or [x, y] for a point in the z = 0 plane.
    Vec3 vec3() const {
        expectVectorShape();
        Vec3 v = Vec3::Zero();
        for (std::size_t i = 0; i < value_.size(); ++i) v[static_cast<Index>(i)] = element(i).number();
        return v;
    }
    // A direction: any finite, non-zero vector, returned with unit length.
    Vec3 direction() const {
        expectVectorShape();
        Vec3 v = Vec3::Zero();
        for (std::size_t i = 0; i < value_.size(); ++i) v[static_cast<Index>(i)] = element(i).finiteNumber();
        const std::optional<Vec3> unit = unitVector(v);
        if (!unit) fail("must not be zero");
        return *unit;
    }

private:
    void expectVectorShape() const {
        if (!value_.is_array() || (value_.size() != 2 && value_.size() != 3))
            fail("expected [x, y, z] or [x, y], got " + describe());
    }
    std::string childPath(std::string_view key) const {
        return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
    }
    std::string typeName() const {
        if (value_.is_number()) return "a number";
        if (value_.is_boolean()) return "a boolean";
        if (value_.is_null()) return "null";
        const std::string t = value_.type_name();
        return (t == "object" || t == "array") ? "an " + t : "a " + t;
    }
    std::string describe() const {
        return value_.is_array() ? "an array of " + std::to_string(value_.size()) : typeName();
    }

    const json& value_;
    std::string path_;
};

Index particleIndex(const Node& node, Index particleCount) {
    const long long i = node.integer();
    if (i < 0 || i >= particleCount)
        node.fail("particle " + std::to_string(i) + " out of range (" + std::to_string(particleCount) + " particles)");
    return static_cast<Index>(i);
}

// A spring's, rod's or constraint's end: a particle index, or {"body": i, "point": [x, y, z]}
// (the point in the body's frame; the body's origin when omitted).
Anchor readAnchor(const Node& node, const Scene& scene) {
    if (!node.isObject()) return particleIndex(node, static_cast<Index>(scene.particles.size()));
    node.expectObject({"body", "point"});
    const Node b = node["body"];
    const long long i = b.integer();
    const auto count = static_cast<long long>(scene.bodies.size());
    if (i < 0 || i >= count)
        b.fail("body " + std::to_string(i) + " out of range (" + std::to_string(count) + " bodies)");
    return Anchor::onBody(static_cast<Index>(i), node.has("point") ? node["point"].vec3() : Vec3::Zero());
}

// Where an anchor is in the scene as written.
Vec3 anchorPosition(const Scene& scene, const Anchor& a) {
    if (a.isParticle()) return scene.particles[a.index()].position;
    const RigidBodySpec& body = scene.bodies[a.index()];
    return body.position + body.orientation * a.point;
}

int substepCount(const Node& n) {
    const long long k = n.integer();
    constexpr int kMax = SimulationSettings::kMaxSubsteps;
    if (k < 1 || k > kMax) n.fail("must be between 1 and " + std::to_string(kMax) + " (got " + std::to_string(k) + ")");
    return static_cast<int>(k);
}

int iterationCap(const Node& n) {
    const long long k = n.integer();
    if (k < 1 || k > 1000000) n.fail("must be between 1 and 1000000 (got " + std::to_string(k) + ")");
    return static_cast<int>(k);
}

void readConstraintSettings(const Node& c, ConstraintSettings& out) {
    c.expectObject({"ks", "kd", "cg_tolerance", "cg_max_iterations", "warm_start"});
    if (c.has("ks")) out.ks = c["ks"].numberAtLeast(0.0);
    if (c.has("kd")) out.kd = c["kd"].numberAtLeast(0.0);
    if (c.has("cg_tolerance")) out.solver.tolerance = c["cg_tolerance"].positive();
    if (c.has("cg_max_iterations")) out.solver.maxIterations = iterationCap(c["cg_max_iterations"]);
    if (c.has("warm_start")) out.warmStart = c["warm_start"].boolean();
}

// The kind a name in the file names; else the registry's error, which lists the choices, at its place.
template <class Lookup>
auto& readKindName(const Node& n, Lookup lookup) {
    try {
        return lookup(n.string());
    } catch (const std::invalid_argument& e) {
        n.fail(e.what());
    }
}

const IntegratorKind& readIntegratorName(const Node& n) { return readKindName(n, integratorKind); }

// A kind's parameters that the object has, each checked against its range.
template <class Settings>
void readParameters(const Node& object, std::span<const Parameter<Settings>> parameters, Settings& out) {
    for (const Parameter<Settings>& p : parameters) {
        if (!object.has(p.key)) continue;
        const Node n = object[p.key];
        const double value = p.type == ParameterType::Flag    ? (n.boolean() ? 1.0 : 0.0)
                             : p.type == ParameterType::Count ? static_cast<double>(n.integer())
                                                              : n.number();
        if (const std::string why = p.rangeError(value); !why.empty()) n.fail(why);
        p.set(out, value);
    }
}

// A parameter's value in the scene file's type.
template <class Settings>
ordered_json parameterJson(const Parameter<Settings>& p, const Settings& settings) {
    const double value = p.get(settings);
    if (p.type == ParameterType::Flag) return value != 0.0;
    if (p.type == ParameterType::Count) return static_cast<long long>(value);
    return value;
}

// An integrator's section of the settings ("implicit": {...}), by its kind's parameters.
void readIntegratorParameters(const Node& section, const IntegratorKind& kind, IntegratorSettings& out) {
    std::vector<std::string_view> keys;
    for (const IntegratorParameter& p : kind.parameters) keys.push_back(p.key);
    section.expectObject(keys);
    readParameters(section, kind.parameters, out);
}

void readSettings(const Node& s, SimulationSettings& out) {
    std::vector<std::string_view> keys = {"gravity",       "drag",
                                          "integrator",    "dt",
                                          "substeps",      "integrator_substeps",
                                          "constraints",   "planar",
                                          "contact_model", "self_collision_thickness"};
    for (const IntegratorKind* kind : integratorKinds())
        if (!kind->section.empty()) keys.push_back(kind->section);
    for (const ContactModelKind* kind : contactModelKinds())
        for (const ContactModelParameter& p : kind->parameters) keys.push_back(p.key);
    s.expectObject(keys);
    if (s.has("planar")) out.planar = s["planar"].boolean();
    for (const ContactModelKind* kind : contactModelKinds()) readParameters(s, kind->parameters, out.contact);
    if (s.has("self_collision_thickness")) {
        const Node n = s["self_collision_thickness"];
        out.contact.selfCollisionThickness = n.numberAtLeast(0.0);
        if (out.contact.selfCollisionThickness > ContactModelSettings::kMaxSelfCollisionThickness)
            n.fail("must be at most " + formatNumber(ContactModelSettings::kMaxSelfCollisionThickness) + " m (got " +
                   formatNumber(out.contact.selfCollisionThickness) + ")");
    }
    if (s.has("gravity")) out.gravity = s["gravity"].vec3();
    if (s.has("drag")) out.drag = s["drag"].numberAtLeast(0.0);
    if (s.has("integrator")) {
        out.integrator = std::string(readIntegratorName(s["integrator"]).name);
    }
    if (s.has("contact_model")) {
        out.contactModel = std::string(readKindName(s["contact_model"], contactModelKind).name);
    }
    if (s.has("dt")) out.dt = s["dt"].positive();
    if (s.has("substeps")) out.substeps = substepCount(s["substeps"]);
    if (s.has("integrator_substeps")) {
        const Node map = s["integrator_substeps"];
        std::vector<std::string_view> names;
        for (const IntegratorKind* kind : integratorKinds()) names.push_back(kind->name);
        map.expectObject(names);
        for (std::string_view name : names)
            if (map.has(name)) out.integratorSubsteps[std::string(name)] = substepCount(map[name]);
    }
    for (const IntegratorKind* kind : integratorKinds())
        if (!kind->section.empty() && s.has(kind->section))
            readIntegratorParameters(s[kind->section], *kind, out.solver);
    if (s.has("constraints")) readConstraintSettings(s["constraints"], out.constraints);
}

ParticleInit readParticle(const Node& p) {
    p.expectObject({"position", "velocity", "mass", "nailed"});
    ParticleInit out;
    out.position = p["position"].vec3();
    if (p.has("velocity")) out.velocity = p["velocity"].vec3();
    if (p.has("mass")) out.mass = p["mass"].positive();
    if (p.has("nailed")) out.nailed = p["nailed"].boolean();
    return out;
}

DampedSpring readSpring(const Node& s, const Scene& scene) {
    s.expectObject({"a", "b", "stiffness", "damping", "rest_length"});
    DampedSpring out;
    out.a = readAnchor(s["a"], scene);
    out.b = readAnchor(s["b"], scene);
    if (out.a.body == out.b.body) s.fail("spring joins " + describeAnchor(out.a) + " to itself");
    out.stiffness = s["stiffness"].numberAtLeast(0.0);
    if (s.has("damping")) out.damping = s["damping"].numberAtLeast(0.0);
    out.restLength = s.has("rest_length") ? s["rest_length"].numberAtLeast(0.0)
                                          : (anchorPosition(scene, out.a) - anchorPosition(scene, out.b)).norm();
    return out;
}

// A unit quaternion [w, x, y, z]; within 1e-6 of unit length, it is normalized.
Quat readOrientation(const Node& n) {
    if (n.arraySize() != 4) n.fail("expected a unit quaternion [w, x, y, z]");
    Eigen::Vector4d q;
    for (std::size_t i = 0; i < 4; ++i) q[static_cast<Index>(i)] = n.element(i).finiteNumber();
    if (std::abs(q.norm() - 1.0) > 1e-6)
        n.fail("must be a unit quaternion [w, x, y, z] (its length is " + formatNumber(q.norm()) + ")");
    return Quat(q[0], q[1], q[2], q[3]).normalized();
}

// A coefficient of restitution: 0 (no bounce) to 1 (elastic).
double restitutionCoefficient(const Node& n) {
    const double e = n.numberAtLeast(0.0);
    if (e > 1.0) n.fail("must be between 0 and 1 (got " + formatNumber(e) + ")");
    return e;
}

// A shape's entry ({"box": {...}}, fields checked as the loader checks every value), as its
// kind's reader sees it.
class ShapeEntry final : public ShapeFields {
public:
    explicit ShapeEntry(const Node& entry) : entry_(entry) {}
    Vec3 vector(std::string_view key) const override { return entry_[key].vec3(); }
    double positive(std::string_view key) const override { return entry_[key].positive(); }
    std::vector<Vec3> points(std::string_view key) const override {
        const Node list = entry_[key];
        std::vector<Vec3> out;
        for (std::size_t i = 0, n = list.arraySize(); i < n; ++i) out.push_back(list.element(i).vec3());
        return out;
    }
    [[noreturn]] void fail(std::string_view key, const std::string& message) const override {
        entry_[key].fail(message);
    }

private:
    const Node& entry_;
};

// One key, the shape's kind, whose value its kind reads.
Shape readShape(const Node& s) {
    std::vector<std::string_view> names;
    for (const ShapeKind* kind : shapeKinds()) names.push_back(kind->name);
    s.expectObject(names);
    const ShapeKind* given = nullptr;
    for (const ShapeKind* kind : shapeKinds()) {
        if (!s.has(kind->name)) continue;
        if (given) s.fail("give one of " + shapeNameList() + ", not several");
        given = kind;
    }
    if (!given) s.fail("expected one of: " + shapeNameList());
    const Node entry = s[given->name];
    entry.expectObject(given->keys);
    return given->read(ShapeEntry(entry));
}

RigidBodySpec readBody(const Node& b) {
    b.expectObject({"shape", "mass", "density", "position", "orientation", "velocity", "angular_velocity", "fixed",
                    "friction", "restitution"});
    RigidBodySpec out;
    out.shape = readShape(b["shape"]);
    if (b.has("mass") && b.has("density")) b["density"].fail("give mass or density, not both");
    if (b.has("density")) {
        out.density = b["density"].positive();
        out.mass = 0.0;
        const double mass = out.density * massProperties(out.shape).volume;
        if (!(mass >= kMinScenePositive && mass <= kMaxSceneMagnitude))
            b["density"].fail("gives a mass of " + formatNumber(mass) + ", out of range");
    } else if (b.has("mass")) {
        out.mass = b["mass"].positive();
    }
    if (b.has("position")) out.position = b["position"].vec3();
    if (b.has("orientation")) out.orientation = readOrientation(b["orientation"]);
    if (b.has("velocity")) out.velocity = b["velocity"].vec3();
    if (b.has("angular_velocity")) out.angularVelocity = b["angular_velocity"].vec3();
    if (b.has("fixed")) out.fixed = b["fixed"].boolean();
    if (b.has("friction")) out.friction = b["friction"].numberAtLeast(0.0);
    if (b.has("restitution")) out.restitution = restitutionCoefficient(b["restitution"]);
    // Mass and size within their bounds can still make a moment of inertia (m size^2) too
    // small or too large to invert: bound the moments as quantities.
    const Vec3 moments = principalAxes(rigidBodyMass(out).inertia).moments;
    if (!(moments.minCoeff() >= kMinScenePositive && moments.maxCoeff() <= kMaxSceneMagnitude))
        b.fail("its moments of inertia (" + formatNumber(moments.minCoeff()) + " to " +
               formatNumber(moments.maxCoeff()) + " kg m^2) must be between " + formatNumber(kMinScenePositive) +
               " and " + formatNumber(kMaxSceneMagnitude));
    return out;
}

Plane readPlane(const Node& p) {
    p.expectObject({"point", "normal", "restitution", "friction"});
    Plane out;
    if (p.has("point")) out.point = p["point"].vec3();
    out.normal = p["normal"].direction();
    if (p.has("restitution")) out.restitution = restitutionCoefficient(p["restitution"]);
    if (p.has("friction")) out.friction = p["friction"].numberAtLeast(0.0);
    return out;
}

// A constraint's entry as its kind's reader sees it (ConstraintKind.h).
class ConstraintEntry final : public ConstraintFields {
public:
    ConstraintEntry(const Node& entry, const Scene& scene) : entry_(entry), scene_(scene) {}

    bool has(std::string_view key) const override { return entry_.has(key); }
    Anchor anchor(std::string_view key) const override { return readAnchor(entry_[key], scene_); }
    Anchor particle(std::string_view key) const override {
        return particleIndex(entry_[key], static_cast<Index>(scene_.particles.size()));
    }
    Vec3 point(std::string_view key) const override { return entry_[key].vec3(); }
    Vec3 direction(std::string_view key) const override { return entry_[key].direction(); }
    double positive(std::string_view key) const override { return entry_[key].positive(); }
    Vec3 placeOf(const Anchor& a) const override { return anchorPosition(scene_, a); }
    Quat bodyOrientation(Index body) const override { return scene_.bodies[body].orientation; }
    [[noreturn]] void fail(std::string_view key, const std::string& message) const override {
        if (key.empty()) entry_.fail(message);
        entry_[key].fail(message);
    }

private:
    const Node& entry_;
    const Scene& scene_;
};

ConstraintSpec readConstraint(const Node& c, const Scene& scene) {
    const Node type = c["type"];
    const ConstraintKind* kind = findConstraintKind(type.string());
    if (!kind)
        type.fail("unknown constraint type '" + type.string() + "' (choose one of: " + constraintNameList() + ")");
    std::vector<std::string_view> keys{"type"};
    keys.insert(keys.end(), kind->keys.begin(), kind->keys.end());
    c.expectObject(keys);
    return kind->read(ConstraintEntry(c, scene));
}

ParametricBead readParametricBead(const Node& b) {
    b.expectObject({"center", "radius", "normal", "mass", "angle", "angular_velocity"});
    ParametricBead out;
    out.center = b["center"].vec3();
    out.radius = b["radius"].positive();
    if (b.has("normal")) out.normal = b["normal"].direction();
    if (b.has("mass")) out.mass = b["mass"].positive();
    if (b.has("angle")) out.angle = b["angle"].number();
    if (b.has("angular_velocity")) out.angularVelocity = b["angular_velocity"].number();
    return out;
}

// A count of particles along a cloth's side or a strand: 2 to 4096.
int gridCount(const Node& n, int low) {
    const long long k = n.integer();
    if (k < low || k > 4096)
        n.fail("must be between " + std::to_string(low) + " and 4096 (got " + std::to_string(k) + ")");
    return static_cast<int>(k);
}

// The first of `count` consecutive particles, all of which must exist.
Index particleRange(const Node& parent, long long count, const Scene& scene) {
    const long long first = parent.has("first_particle") ? parent["first_particle"].integer() : 0;
    const auto particles = static_cast<long long>(scene.particles.size());
    if (first < 0 || first + count > particles)
        parent.fail("needs particles " + std::to_string(first) + " to " + std::to_string(first + count - 1) + " (" +
                    std::to_string(particles) + " particles)");
    return static_cast<Index>(first);
}

// A per-element constant computed from the material (k / area, k / length): it must stay a quantity.
void expectQuantity(const Node& n, double value, const std::string& what) {
    if (!(value <= kMaxSceneMagnitude))
        n.fail("gives " + what + " of " + formatNumber(value) + ", above " + formatNumber(kMaxSceneMagnitude));
}

// A cloth's or a hair's "missing" places (the particles deleted from it): ascending, below
// `places`, leaving at least one.
std::vector<int> readMissing(const Node& parent, long long places, const std::string& where) {
    std::vector<int> out;
    if (!parent.has("missing")) return out;
    const Node missing = parent["missing"];
    if (missing.arraySize() >= static_cast<std::size_t>(places))
        missing.fail("leaves no particle of the " + std::to_string(places) + " places");
    for (std::size_t k = 0; k < missing.arraySize(); ++k) {
        const Node place = missing.element(k);
        const long long value = place.integer();
        if (value < 0 || value >= places)
            place.fail("place " + std::to_string(value) + " is not in " + where + " (0 to " +
                       std::to_string(places - 1) + ")");
        if (!out.empty() && value <= out.back())
            place.fail("places must be in ascending order without repeats (" + std::to_string(value) + " after " +
                       std::to_string(out.back()) + ")");
        out.push_back(static_cast<int>(value));
    }
    return out;
}

ClothSpec readCloth(const Node& c, const Scene& scene) {
    std::vector<std::string_view> keys = {"first_particle", "columns", "rows", "width", "height", "missing"};
    for (const Parameter<ClothMaterial>& p : clothMaterialParameters()) keys.push_back(p.key);
    c.expectObject(keys);
    ClothSpec out;
    out.columns = gridCount(c["columns"], 2);
    out.rows = gridCount(c["rows"], 2);
    out.missing = readMissing(c, out.placeCount(), "the grid");
    out.firstParticle = particleRange(c, out.particleCount(), scene);
    out.width = c["width"].positive();
    out.height = c["height"].positive();
    readParameters(c, clothMaterialParameters(), out.material);
    const ClothMaterial& m = out.material;
    // The per-triangle constants (material / rest area) and per-hinge ones (material |e|^2/(A1 + A2)).
    const double du = out.width / (out.columns - 1), dv = out.height / (out.rows - 1);
    const double area = 0.5 * du * dv;
    const double hinge = (du * du + dv * dv) / (du * dv);
    expectQuantity(c, std::max({m.stretch, m.shear, m.stretchDamping, m.shearDamping}) / area, "a triangle constant");
    expectQuantity(c, std::max(m.bend, m.bendDamping) * hinge, "a hinge constant");
    return out;
}

HairSpec readHair(const Node& h, const Scene& scene) {
    std::vector<std::string_view> keys = {"first_particle", "strands", "length", "rest_shape", "missing"};
    for (const Parameter<HairMaterial>& p : hairMaterialParameters()) keys.push_back(p.key);
    h.expectObject(keys);
    HairSpec out;
    const long long strands = h["strands"].integer();
    if (strands < 1 || strands > 100000)
        h["strands"].fail("must be between 1 and 100000 (got " + std::to_string(strands) + ")");
    out.strands = static_cast<int>(strands);
    out.length = gridCount(h["length"], 2);
    out.missing = readMissing(h, out.placeCount(), "the strands");
    out.firstParticle = particleRange(h, out.particleCount(), scene);
    readParameters(h, hairMaterialParameters(), out.material);
    const HairMaterial& m = out.material;
    const Index count = out.particleCount();
    if (h.has("rest_shape")) {
        const Node shape = h["rest_shape"];
        if (shape.arraySize() != static_cast<std::size_t>(count))
            shape.fail("expected " + std::to_string(count) + " points (strands x length" +
                       (out.missing.empty() ? "" : ", less the missing places") + "), got " +
                       std::to_string(shape.arraySize()));
        for (std::size_t i = 0; i < shape.arraySize(); ++i) out.restShape.push_back(shape.element(i).vec3());
    }
    // k: the particle's place among the hair's particles.
    const auto rest = [&](Index k) {
        return out.restShape.empty() ? scene.particles[out.firstParticle + k].position : out.restShape[k];
    };
    const double largest = std::max({m.stretch, m.bend, m.twist, m.stretchDamping, m.bendDamping});
    for (const StrandRun& run : out.runs())
        for (Index k = run.first - out.firstParticle; k + 1 < run.first - out.firstParticle + run.length; ++k) {
            const double l = (rest(k + 1) - rest(k)).norm();
            if (!(l >= 1e-9))
                h.fail("particles " + std::to_string(out.firstParticle + k) + " and " +
                       std::to_string(out.firstParticle + k + 1) + " of a strand are at the same place at rest");
            expectQuantity(h, largest / l, "a segment constant");
        }
    return out;
}

// A force field's entry ("wind": {...}): its kind's vectors and numbers, the rest at their defaults.
ForceFieldSpec readForceField(const Node& n, const ForceFieldKind& kind) {
    std::vector<std::string_view> keys;
    for (const ForceFieldVector& v : kind.vectors) keys.push_back(v.key);
    for (const ForceFieldParameter& p : kind.parameters) keys.push_back(p.key);
    n.expectObject(keys);
    ForceFieldSpec out = defaultForceField(kind);
    for (const ForceFieldVector& v : kind.vectors)
        if (n.has(v.key)) v.set(out, n[v.key].vec3());
    readParameters(n, kind.parameters, out);
    return out;
}

Scene readScene(const Node& root) {
    std::vector<std::string_view> keys = {"format",           "version", "name",    "description", "settings",
                                          "particles",        "bodies",  "springs", "planes",      "constraints",
                                          "parametric_beads", "wires",   "cloths",  "hair",        "compare"};
    for (const ForceFieldKind* kind : forceFieldKinds()) keys.push_back(kind->name);
    root.expectObject(keys);
    if (!root.has("format")) root.fail("not a Tinkerbox scene: missing \"format\": \"tinkerbox-scene\"");
    if (const Node f = root["format"]; f.string() != kSceneFormat)
        f.fail("expected \"" + std::string(kSceneFormat) + "\", got \"" + f.string() + "\"");
    // Version 1 is version 2 without bodies: it reads the same.
    if (const Node v = root["version"]; v.integer() != 1 && v.integer() != kSceneVersion)
        v.fail("unsupported version " + std::to_string(v.integer()) + " (this build reads versions 1 to " +
               std::to_string(kSceneVersion) + ")");
    if (root.has("bodies") && root["version"].integer() < 2) root["bodies"].fail("rigid bodies need version 2");
    Scene scene;
    if (root.has("name")) scene.name = root["name"].string();
    if (root.has("description")) scene.description = root["description"].string();
    if (root.has("settings")) readSettings(root["settings"], scene.settings);
    // Each list is optional; its elements are read in order, so that springs and constraints
    // can check their indices against the particles read before them.
    const auto readList = [&root](std::string_view key, auto& out, const auto& read) {
        if (!root.has(key)) return;
        const Node list = root[key];
        for (std::size_t i = 0, n = list.arraySize(); i < n; ++i) out.push_back(read(list.element(i)));
    };
    readList("particles", scene.particles, readParticle);
    readList("bodies", scene.bodies, readBody);
    readList("springs", scene.springs, [&](const Node& n) { return readSpring(n, scene); });
    readList("planes", scene.planes, readPlane);
    readList("constraints", scene.constraints, [&](const Node& n) { return readConstraint(n, scene); });
    readList("parametric_beads", scene.parametricBeads, readParametricBead);
    readList("wires", scene.wires, [](const Node& w) {
        w.expectObject({"center", "radius", "normal"});
        Wire wire;
        wire.center = w["center"].vec3();
        wire.radius = w["radius"].positive();
        if (w.has("normal")) wire.normal = w["normal"].direction();
        return wire;
    });
    readList("cloths", scene.cloths, [&](const Node& n) { return readCloth(n, scene); });
    readList("hair", scene.hair, [&](const Node& n) { return readHair(n, scene); });
    for (const ForceFieldKind* kind : forceFieldKinds())
        if (root.has(kind->name)) scene.fields.push_back(readForceField(root[kind->name], *kind));
    if (root.has("compare")) {
        const Node list = root["compare"];
        const std::size_t n = list.arraySize();
        if (n < 2 || n > 4) list.fail("expected 2 to 4 integrators (got " + std::to_string(n) + ")");
        for (std::size_t i = 0; i < n; ++i) {
            scene.compare.emplace_back(readIntegratorName(list.element(i)).name);
        }
    }
    return scene;
}

ordered_json toJson(const Vec3& v) { return ordered_json::array({v.x(), v.y(), v.z()}); }

ordered_json toJson(const Anchor& a) {
    if (a.isParticle()) return a.index();
    return {{"body", a.index()}, {"point", toJson(a.point)}};
}

class ShapeJson final : public ShapeFieldWriter {
public:
    void vector(std::string_view key, const Vec3& v) override { entry_[std::string(key)] = toJson(v); }
    void number(std::string_view key, double value) override { entry_[std::string(key)] = value; }
    void points(std::string_view key, std::span<const Vec3> points) override {
        ordered_json list = ordered_json::array();
        for (const Vec3& p : points) list.push_back(toJson(p));
        entry_[std::string(key)] = std::move(list);
    }
    ordered_json take() { return std::move(entry_); }

private:
    ordered_json entry_ = ordered_json::object();
};

ordered_json toJson(const Shape& shape) {
    const ShapeKind& kind = shapeKind(shape);
    ShapeJson out;
    kind.write(shape, out);
    return {{std::string(kind.name), out.take()}};
}

ordered_json toJson(const RigidBodySpec& b) {
    ordered_json out = {{"shape", toJson(b.shape)}};
    if (b.density > 0.0) out["density"] = b.density;
    else out["mass"] = b.mass;
    out["position"] = toJson(b.position);
    out["orientation"] = {b.orientation.w(), b.orientation.x(), b.orientation.y(), b.orientation.z()};
    out["velocity"] = toJson(b.velocity);
    out["angular_velocity"] = toJson(b.angularVelocity);
    out["fixed"] = b.fixed;
    out["friction"] = b.friction;
    out["restitution"] = b.restitution;
    return out;
}

// A constraint's entry being written: "type" first, then its kind's fields in its order.
class ConstraintJson final : public ConstraintFieldWriter {
public:
    explicit ConstraintJson(std::string_view type) : entry_{{"type", type}} {}
    void anchor(std::string_view key, const Anchor& a) override { entry_[std::string(key)] = toJson(a); }
    void vector(std::string_view key, const Vec3& v) override { entry_[std::string(key)] = toJson(v); }
    void number(std::string_view key, double value) override { entry_[std::string(key)] = value; }
    ordered_json take() { return std::move(entry_); }

private:
    ordered_json entry_;
};

ordered_json toJson(const ConstraintSpec& spec) {
    const ConstraintKind& kind = constraintKind(spec);
    ConstraintJson out(kind.name);
    kind.write(spec, out);
    return out.take();
}

// Where a value sits in the file, as the loader's errors say it: bodies[3].position[0].
std::string childPath(const std::string& path, const ordered_json& parent, const std::string& key) {
    if (parent.is_array()) return path + "[" + key + "]";
    return path.empty() ? key : path + "." + key;
}

// One line for a value: {"a": 0, "b": [1.0, 2.0]}. JSON has no inf or NaN (nlohmann writes
// null, which no loader reads back): such a number is refused with its place, not saved.
std::string inlineText(const ordered_json& value, const std::string& path) {
    if (value.is_number_float() && !std::isfinite(value.get<double>()))
        throw std::invalid_argument("the scene cannot be saved: " + path + " is not a finite number");
    if (!value.is_structured()) return value.dump();
    std::string out = value.is_object() ? "{" : "[";
    bool first = true;
    for (const auto& [key, item] : value.items()) {
        out.append(first ? "" : ", ");
        first = false;
        if (value.is_object()) out.append(ordered_json(key).dump()).append(": ");
        out.append(inlineText(item, childPath(path, value, key)));
    }
    return out.append(value.is_object() ? "}" : "]");
}

// Objects are indented; arrays of numbers stay on one line; a list of objects (particles,
// springs, planes) has one object per line, so that files diff and hand-edit well.
std::string blockText(const ordered_json& value, const std::string& indent, const std::string& path) {
    const bool objectList = value.is_array() && !value.empty() && value.front().is_object();
    if (!value.is_object() && !objectList) return inlineText(value, path);
    if (value.empty()) return "{}";
    const std::string inner = indent + "  ";
    std::string out = value.is_object() ? "{\n" : "[\n";
    bool first = true;
    for (const auto& [key, item] : value.items()) {
        out.append(first ? "" : ",\n").append(inner);
        first = false;
        const std::string at = childPath(path, value, key);
        if (value.is_object()) out.append(ordered_json(key).dump()).append(": ").append(blockText(item, inner, at));
        else out.append(inlineText(item, at));
    }
    return out.append("\n").append(indent).append(value.is_object() ? "}" : "]");
}

}  // namespace

SceneError::SceneError(std::string source, int line, int column, std::string path, std::string message)
    : std::runtime_error([&] {
          std::string where = source;
          if (line > 0) where += ":" + std::to_string(line) + ":" + std::to_string(column);
          return where + ": " + (path.empty() ? "" : path + ": ") + message;
      }()),
      source_(std::move(source)),
      line_(line),
      column_(column),
      path_(std::move(path)),
      message_(std::move(message)) {}

Scene parseScene(std::string_view text, const std::string& source) {
    json doc;
    try {
        doc = parseJsonDocument(text);
    } catch (const JsonTextError& e) {
        throw SceneError(source, e.location.line, e.location.column, e.path, e.message);
    }
    try {
        return readScene(Node(doc, ""));
    } catch (const ValidationError& e) {
        // One more pass over the text, only now that there is something to point at.
        const TextLocation at = locateJsonPath(text, e.path);
        throw SceneError(source, at.line, at.column, e.path, e.message);
    }
}

Scene loadScene(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw SceneError(file.string(), 0, 0, "", std::string("cannot open: ") + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw SceneError(file.string(), 0, 0, "", "read error");
    return parseScene(text.str(), file.string());
}

std::string serializeScene(const Scene& scene) {
    const SimulationSettings& s = scene.settings;
    ordered_json root;
    root["format"] = kSceneFormat;
    root["version"] = kSceneVersion;
    root["name"] = scene.name;
    root["description"] = scene.description;
    root["settings"] = {
        {"gravity", toJson(s.gravity)},
        {"drag", s.drag},
        {"integrator", s.integrator},
        {"contact_model", s.contactModel},
        {"dt", s.dt},
        {"substeps", s.substeps},
        {"integrator_substeps", ordered_json(s.integratorSubsteps)},
    };
    for (const IntegratorKind* kind : integratorKinds()) {
        if (kind->section.empty()) continue;
        ordered_json& section = root["settings"][std::string(kind->section)];
        section = ordered_json::object();
        for (const IntegratorParameter& p : kind->parameters) section[std::string(p.key)] = parameterJson(p, s.solver);
    }
    if (s.planar) root["settings"]["planar"] = true;
    // The contact model's choices, where they differ from the defaults.
    for (const ContactModelKind* kind : contactModelKinds())
        for (const ContactModelParameter& p : kind->parameters)
            if (p.get(s.contact) != p.get(ContactModelSettings{}))
                root["settings"][std::string(p.key)] = parameterJson(p, s.contact);
    if (s.contact.selfCollisionThickness > 0.0)
        root["settings"]["self_collision_thickness"] = s.contact.selfCollisionThickness;
    ordered_json& constraints = root["settings"]["constraints"];
    constraints = {{"ks", s.constraints.ks}, {"kd", s.constraints.kd}};
    // No cg_tolerance: automatic, as tight as the integrator needs.
    if (s.constraints.solver.tolerance > 0.0) constraints["cg_tolerance"] = s.constraints.solver.tolerance;
    constraints["cg_max_iterations"] = s.constraints.solver.maxIterations;
    constraints["warm_start"] = s.constraints.warmStart;
    root["particles"] = ordered_json::array();
    for (const ParticleInit& p : scene.particles)
        root["particles"].push_back({{"position", toJson(p.position)},
                                     {"velocity", toJson(p.velocity)},
                                     {"mass", p.mass},
                                     {"nailed", p.nailed}});
    if (!scene.bodies.empty()) {
        root["bodies"] = ordered_json::array();
        for (const RigidBodySpec& b : scene.bodies) root["bodies"].push_back(toJson(b));
    }
    root["springs"] = ordered_json::array();
    for (const DampedSpring& sp : scene.springs)
        root["springs"].push_back({{"a", toJson(sp.a)},
                                   {"b", toJson(sp.b)},
                                   {"stiffness", sp.stiffness},
                                   {"damping", sp.damping},
                                   {"rest_length", sp.restLength}});
    root["planes"] = ordered_json::array();
    for (const Plane& p : scene.planes)
        root["planes"].push_back({{"point", toJson(p.point)},
                                  {"normal", toJson(p.normal)},
                                  {"restitution", p.restitution},
                                  {"friction", p.friction}});
    root["constraints"] = ordered_json::array();
    for (const ConstraintSpec& c : scene.constraints) root["constraints"].push_back(toJson(c));
    root["parametric_beads"] = ordered_json::array();
    for (const ParametricBead& b : scene.parametricBeads)
        root["parametric_beads"].push_back({{"center", toJson(b.center)},
                                            {"radius", b.radius},
                                            {"normal", toJson(b.normal)},
                                            {"mass", b.mass},
                                            {"angle", b.angle},
                                            {"angular_velocity", b.angularVelocity}});
    root["wires"] = ordered_json::array();
    for (const Wire& w : scene.wires)
        root["wires"].push_back({{"center", toJson(w.center)}, {"radius", w.radius}, {"normal", toJson(w.normal)}});
    if (!scene.cloths.empty()) {
        root["cloths"] = ordered_json::array();
        for (const ClothSpec& c : scene.cloths) {
            ordered_json entry = {{"first_particle", c.firstParticle},
                                  {"columns", c.columns},
                                  {"rows", c.rows},
                                  {"width", c.width},
                                  {"height", c.height}};
            for (const Parameter<ClothMaterial>& p : clothMaterialParameters())
                entry[std::string(p.key)] = parameterJson(p, c.material);
            root["cloths"].push_back(std::move(entry));
        }
        for (std::size_t k = 0; k < scene.cloths.size(); ++k)
            if (!scene.cloths[k].missing.empty()) root["cloths"][k]["missing"] = scene.cloths[k].missing;
    }
    if (!scene.hair.empty()) {
        root["hair"] = ordered_json::array();
        for (const HairSpec& h : scene.hair) {
            ordered_json entry = {{"first_particle", h.firstParticle}, {"strands", h.strands}, {"length", h.length}};
            for (const Parameter<HairMaterial>& p : hairMaterialParameters())
                entry[std::string(p.key)] = parameterJson(p, h.material);
            root["hair"].push_back(std::move(entry));
        }
        for (std::size_t k = 0; k < scene.hair.size(); ++k)
            if (!scene.hair[k].restShape.empty()) {
                ordered_json shape = ordered_json::array();
                for (const Vec3& x : scene.hair[k].restShape) shape.push_back(toJson(x));
                root["hair"][k]["rest_shape"] = shape;
            }
        for (std::size_t k = 0; k < scene.hair.size(); ++k)
            if (!scene.hair[k].missing.empty()) root["hair"][k]["missing"] = scene.hair[k].missing;
    }
    if (!scene.compare.empty()) root["compare"] = scene.compare;
    for (const ForceFieldSpec& field : scene.fields) {
        const ForceFieldKind& kind = forceFieldKind(field);
        ordered_json entry = ordered_json::object();
        for (const ForceFieldVector& v : kind.vectors) entry[std::string(v.key)] = toJson(v.get(field));
        for (const ForceFieldParameter& p : kind.parameters) entry[std::string(p.key)] = parameterJson(p, field);
        root[std::string(kind.name)] = std::move(entry);
    }
    return blockText(root, "", "") + "\n";
}

void saveScene(const Scene& scene, const std::filesystem::path& file) {
    writeFileAtomically(file, serializeScene(scene));
}

void writeFileAtomically(const std::filesystem::path& file, const std::string& text) {
    std::filesystem::path temporary = file;
    temporary += ".tmp-" + std::to_string(::getpid());
    const auto failure = [&](const std::string& what) {
        const int error = errno;
        std::filesystem::remove(temporary);
        return std::runtime_error("cannot save " + file.string() + ": " + what + ": " + std::strerror(error));
    };
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw failure("cannot create " + temporary.string());
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ::close(fd);
            throw failure("write failed");
        }
        written += static_cast<std::size_t>(n);
    }
    // Flush to disk before the rename, so that a crash leaves the old or the new file, never a torn one.
    const bool synced = ::fsync(fd) == 0;
    const bool closed = ::close(fd) == 0;
    if (!synced || !closed) throw failure("flush failed");
    if (::rename(temporary.c_str(), file.c_str()) != 0) throw failure("rename failed");
}

}  // namespace tinkerbox
