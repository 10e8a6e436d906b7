#include "cli/Csv.h"

#include <charconv>

namespace tinkerbox {

std::string formatDouble(double value) {
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, ec == std::errc() ? end : buffer);
}

void writeRunHeader(std::ostream& out, Index particleCount) {
    out << "t,kinetic,potential,energy,constraint_error";
    for (Index i = 0; i < particleCount; ++i) out << ",p" << i << "_x,p" << i << "_y,p" << i << "_z";
    out << '\n';
}

void writeRunRow(std::ostream& out, const Simulation& simulation) {
    const ParticleSystem& s = simulation.system();
    const double kinetic = s.kineticEnergy();
    const double potential = s.potentialEnergy();
    out << formatDouble(simulation.time());
    for (double v : {kinetic, potential, kinetic + potential, 0.0}) out << ',' << formatDouble(v);
    for (Index i = 0; i < s.positions().size(); ++i) out << ',' << formatDouble(s.positions()[i]);
    out << '\n';
}

}  // namespace tinkerbox
