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
    for (Index i = 0; i < simulation.system().particleCount(); ++i) out << ",p" << i << "_x,p" << i << "_y,p" << i << "_z";
    for (Index i = 0; i < simulation.beads().beadCount(); ++i) out << ",b" << i << "_x,b" << i << "_y,b" << i << "_z";
    out << '\n';
}

void writeRunRow(std::ostream& out, Simulation& simulation) {
    const double kinetic = simulation.kineticEnergy();
    const double potential = simulation.potentialEnergy();
    out << formatDouble(simulation.time());
    for (double v : {kinetic, potential, kinetic + potential, simulation.constraintError()}) out << ',' << formatDouble(v);
    const VecX& x = simulation.system().positions();
    for (Index i = 0; i < x.size(); ++i) out << ',' << formatDouble(x[i]);
    for (Index i = 0; i < simulation.beads().beadCount(); ++i) {
        const Vec3 p = simulation.beads().position(i);
        out << ',' << formatDouble(p.x()) << ',' << formatDouble(p.y()) << ',' << formatDouble(p.z());
    }
    out << '\n';
}

}  // namespace tinkerbox
