// The run's CSV rows: written whole, or not at all when a value is not finite.
#include "cli/Csv.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace tinkerbox {
namespace {

// One particle where the test puts it.
std::string rowOf(const Vec3& position, const Vec3& velocity, std::ostringstream& out) {
    Simulation simulation;
    simulation.world().addParticle(position, velocity, 1.0);
    return writeRunRow(out, simulation, ContactReport{});
}

TEST(Csv, ARowIsWrittenWhenEveryValueIsFinite) {
    std::ostringstream out;
    EXPECT_EQ(rowOf(Vec3(1.0, 2.0, 3.0), Vec3(0.0, 0.0, 0.0), out), "");
    // t, the energies (9.81 * 2 J of potential), the constraint error, the position, the
    // contacts, the penetration and the momenta.
    EXPECT_EQ(out.str(), "0,0,19.62,19.62,0,1,2,3,0,0,0,0,0,0,0,0\n");
}

// A state of finite numbers whose products overflow: nothing is written, and the first column
// that would not be finite is named.
TEST(Csv, ARowWithAValueThatIsNotFiniteIsNotWrittenAndItsColumnNamed) {
    std::ostringstream out;
    EXPECT_EQ(rowOf(Vec3::Zero(), Vec3(1e300, 0.0, 0.0), out), "kinetic");                     // 1/2 m v^2 overflows
    EXPECT_EQ(rowOf(Vec3(1e300, 0.0, 0.0), Vec3(0.0, 1e10, 0.0), out), "angular_momentum_z");  // x * m v overflows
    EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace tinkerbox
