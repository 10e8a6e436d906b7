#pragma once
// CSV output of a run: t, energies, constraint error, every particle position, then
// every parametric bead's position, every rigid body's pose, the frame's contacts and the
// total momenta.
#include <ostream>
#include <string>

#include "core/pipeline/Simulation.h"

namespace tinkerbox {

// Shortest text that reads back as the same double.
std::string formatDouble(double value);

// t,kinetic,potential,energy,constraint_error,p0_x,p0_y,p0_z,...,b0_x,b0_y,b0_z,...,
// r0_x,...,r0_qz,...,contacts,max_penetration,linear_momentum_x,...,angular_momentum_z
void writeRunHeader(std::ostream& out, const Simulation& simulation);
// `contact`: what the contact model did in the frame that led to this row (zero for the
// row at t = 0). A row with a value that is not finite is not written: its column's name is
// returned instead (empty when the row was written).
std::string writeRunRow(std::ostream& out, Simulation& simulation, const ContactReport& contact);

}  // namespace tinkerbox
