#include "cli/Csv.h"

#include <charconv>
#include <cmath>
#include <initializer_list>
#include <vector>

namespace tinkerbox {

std::string formatDouble(double value) {
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, ec == std::errc() ? end : buffer);
}

namespace {

// The columns after t, in order, as the header names them.
std::vector<std::string> runColumns(const Simulation& simulation) {
    std::vector<std::string> names{"kinetic", "potential", "energy", "constraint_error"};
    const World& world = simulation.world();
    const auto add = [&names](char prefix, Index i, std::initializer_list<const char*> components) {
        for (const char* c : components) names.push_back(prefix + std::to_string(i) + '_' + c);
    };
    for (Index i = 0; i < world.particleCount(); ++i) add('p', i, {"x", "y", "z"});
    for (Index i = 0; i < world.beadCount(); ++i) add('b', i, {"x", "y", "z"});
    for (Index k = 0; k < world.rigidBodyCount(); ++k) add('r', k, {"x", "y", "z", "qw", "qx", "qy", "qz"});
    for (const char* c : {"contacts", "max_penetration", "linear_momentum_x", "linear_momentum_y", "linear_momentum_z",
                          "angular_momentum_x", "angular_momentum_y", "angular_momentum_z"})
        names.emplace_back(c);
    return names;
}

}  // namespace

void writeRunHeader(std::ostream& out, const Simulation& simulation) {
    out << 't';
    for (const std::string& name : runColumns(simulation)) out << ',' << name;
    out << '\n';
}

std::string writeRunRow(std::ostream& out, Simulation& simulation, const ContactReport& contact) {
    const double kinetic = simulation.kineticEnergy();
    const double potential = simulation.potentialEnergy();
    std::vector<double> values{kinetic, potential, kinetic + potential, simulation.constraintError()};
    const VecX& x = simulation.world().positions();
    values.insert(values.end(), x.begin(), x.end());
    const World& world = simulation.world();
    const auto add = [&values](const Vec3& v) { values.insert(values.end(), {v.x(), v.y(), v.z()}); };
    for (Index i = 0; i < world.beadCount(); ++i) add(world.beads().position(i));
    for (Index k = 0; k < world.rigidBodyCount(); ++k) {
        const RigidBodies& bodies = world.rigidBodies();
        add(bodies.position(k));
        const Quat& q = bodies.orientation(k);
        values.insert(values.end(), {q.w(), q.x(), q.y(), q.z()});
    }
    values.insert(values.end(), {static_cast<double>(contact.contacts), contact.maxPenetration});
    add(world.linearMomentum());
    add(world.angularMomentum());
    for (std::size_t c = 0; c < values.size(); ++c)
        if (!std::isfinite(values[c])) return runColumns(simulation)[c];
    out << formatDouble(simulation.time());
    for (double v : values) out << ',' << formatDouble(v);
    out << '\n';
    return {};
}

}  // namespace tinkerbox
