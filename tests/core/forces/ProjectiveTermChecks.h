#pragma once
// What a force's projective constraints (ProjectiveTerm.h) add up to: their energy
// sum_c w_c/2 |A_c x - p_c|^2 at x, with the targets the term projects there.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/dynamics/World.h"
#include "core/forces/ProjectiveTerm.h"

namespace tinkerbox::test {

// At the step's start (x0 = x): with no damping the targets are the elastic ones, and
// A_c x - p_c is the projected target relative to the start, negated.
inline double projectiveEnergy(const ProjectiveTerm& term, const VecX& x, double h = 0.01) {
    std::vector<ProjectiveStencil> stencils;
    term.appendProjectiveStencils(h, stencils);
    const auto count = static_cast<Index>(stencils.size());
    std::vector<ProjectiveTarget> targets;
    for (const ProjectiveStencil& s : stencils) targets.resize(targets.size() + s.rows);
    std::vector<double> state(static_cast<std::size_t>(projectionStateLength(term.projectionStateSize(), count)));
    term.prepareProjections(x, h, 0, count, state.data());
    term.projectTargets(x, x, 0, count, state.data(), targets.data());
    double energy = 0.0;
    std::size_t target = 0;
    for (const ProjectiveStencil& s : stencils)
        for (int r = 0; r < s.rows; ++r, ++target) energy += 0.5 * s.weight * targets[target].head<3>().squaredNorm();
    return energy;
}

// How far a term's projective energy is from its force's own, the potential energy of a
// world with that force alone, relative to it.
inline double relativeEnergyMismatch(const ProjectiveTerm& term, const World& world) {
    const double energy = world.potentialEnergy();
    EXPECT_GT(energy, 0.0);
    return std::abs(projectiveEnergy(term, world.positions()) - energy) / energy;
}

// A match to second order about the rest shape: at strains ten and a hundred times smaller
// the relative mismatch falls at least five-fold each time, to below 1e-3.
inline void expectSecondOrderMatch(const std::vector<double>& mismatch, const std::string& what = {}) {
    ASSERT_EQ(mismatch.size(), 3u);
    EXPECT_LT(mismatch[1], 0.2 * mismatch[0]) << what;
    EXPECT_LT(mismatch[2], 0.2 * mismatch[1]) << what;
    EXPECT_LT(mismatch[2], 1e-3) << what;
}

}  // namespace tinkerbox::test
