#pragma once
// CSV output of a run: t, energies, constraint error, every particle position, then
// every parametric bead's position.
#include <ostream>
#include <string>

#include "core/dynamics/Simulation.h"

namespace tinkerbox {

// Shortest text that reads back as the same double.
std::string formatDouble(double value);

// t,kinetic,potential,energy,constraint_error,p0_x,p0_y,p0_z,...,b0_x,b0_y,b0_z,...
void writeRunHeader(std::ostream& out, const Simulation& simulation);
void writeRunRow(std::ostream& out, Simulation& simulation);

}  // namespace tinkerbox
