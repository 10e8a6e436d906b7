#pragma once
// CSV output of a run: t, energies, constraint error and every particle position.
#include <ostream>
#include <string>

#include "core/Simulation.h"

namespace tinkerbox {

// Shortest text that reads back as the same double.
std::string formatDouble(double value);

void writeRunHeader(std::ostream& out, Index particleCount);
void writeRunRow(std::ostream& out, const Simulation& simulation);

}  // namespace tinkerbox
