#include "cli/Csv.h"

#include <charconv>

namespace tinkerbox {

std::string formatDouble(double value) {
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, ec == std::errc() ? end : buffer);
}

void writeRunHeader(std::ostream& out, const Simulation& simulation) {
    out << "t,kinetic,potential,energy,constraint_error";
    for (Index i = 0; i < simulation.world().particleCount(); ++i) out << ",p" << i << "_x,p" << i << "_y,p" << i << "_z";
    const World& world = simulation.world();
    for (Index i = 0; i < world.beadCount(); ++i) out << ",b" << i << "_x,b" << i << "_y,b" << i << "_z";
    for (Index k = 0; k < world.rigidBodyCount(); ++k)
        for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz"}) out << ",r" << k << '_' << c;
    out << ",contacts,max_penetration";
    out << ",linear_momentum_x,linear_momentum_y,linear_momentum_z"
           ",angular_momentum_x,angular_momentum_y,angular_momentum_z\n";
}

void writeRunRow(std::ostream& out, Simulation& simulation, const ContactReport& contact) {
    const double kinetic = simulation.kineticEnergy();
    const double potential = simulation.potentialEnergy();
    out << formatDouble(simulation.time());
    for (double v : {kinetic, potential, kinetic + potential, simulation.constraintError()}) out << ',' << formatDouble(v);
    const VecX& x = simulation.world().positions();
    for (Index i = 0; i < x.size(); ++i) out << ',' << formatDouble(x[i]);
    const World& world = simulation.world();
    const auto write = [&out](const Vec3& v) {
        out << ',' << formatDouble(v.x()) << ',' << formatDouble(v.y()) << ',' << formatDouble(v.z());
    };
    for (Index i = 0; i < world.beadCount(); ++i) write(world.beads().position(i));
    for (Index k = 0; k < world.rigidBodyCount(); ++k) {
        const RigidBodies& bodies = world.rigidBodies();
        write(bodies.position(k));
        const Quat& q = bodies.orientation(k);
        for (double c : {q.w(), q.x(), q.y(), q.z()}) out << ',' << formatDouble(c);
    }
    out << ',' << contact.contacts << ',' << formatDouble(contact.maxPenetration);
    write(world.linearMomentum());
    write(world.angularMomentum());
    out << '\n';
}

}  // namespace tinkerbox
