#include "core/integrators/ProjectiveDynamics.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>
#include <stdexcept>
#include <tuple>

namespace tinkerbox {

namespace {
constexpr IntegratorParameter kProjectiveParameters[] = {
    {.key = "iterations",
     .option = "projective-iterations",
     .label = "iterations",
     .help = "Projective dynamics' local-global iterations per step (Liu et al. 2013): more come closer to the "
             "backward Euler step, each costs a projection of every spring and one solve with the prefactored "
             "matrix.",
     .type = ParameterType::Count,
     .min = 1,
     .max = 1e6,
     .get = [](const IntegratorSettings& s) { return static_cast<double>(s.projectiveIterations); },
     .set = [](IntegratorSettings& s, double v) { s.projectiveIterations = static_cast<int>(v); }},
};
}  // namespace

constexpr IntegratorKind kProjectiveDynamicsKind{
    .name = "projective",
    .summary =
        "Projective dynamics: backward Euler by local-global iterations with one prefactored matrix; "
        "stable at any step on springs.",
    .capabilities = static_cast<unsigned>(IntegratorCapability::StableOnStiffSprings),
    .section = "projective",
    .parameters = kProjectiveParameters,
    .make = [](const IntegratorSettings& s) -> std::unique_ptr<Integrator> {
        return std::make_unique<ProjectiveDynamics>(s.projectiveIterations);
    },
};

ProjectiveDynamics::ProjectiveDynamics(int iterations) : iterations_(iterations) {
    if (iterations < 1) throw std::invalid_argument("projective: the iterations must be at least 1");
}

bool ProjectiveDynamics::factorizationCurrent(double h) const {
    if (!factored_ || h != h_ || terms_ != factoredTerms_ || fixed_ != factoredFixed_) return false;
    if (mass_.size() != factoredMass_.size() || mass_ != factoredMass_) return false;
    for (std::size_t t = 0; t < terms_.size(); ++t)
        if (terms_[t]->projectiveRevision() != factoredRevisions_[t]) return false;
    return true;
}

namespace {
// Compressed rows from (row, column, value) entries, in the order given within each row.
template <class Column>
void compressRows(Index rows, const std::vector<std::tuple<Index, Column, double>>& entries, std::vector<Index>& start,
                  std::vector<Column>& column, std::vector<double>& value) {
    start.assign(rows + 1, 0);
    for (const auto& e : entries) ++start[std::get<0>(e) + 1];
    for (Index r = 0; r < rows; ++r) start[r + 1] += start[r];
    column.resize(entries.size());
    value.resize(entries.size());
    std::vector<Index> next(start.begin(), start.end() - 1);
    for (const auto& [r, c, v] : entries) {
        column[next[r]] = c;
        value[next[r]++] = v;
    }
}
}  // namespace

template <class Ldlt>
bool ProjectiveDynamics::factorNumbered(const Ldlt& ldlt, const std::optional<std::array<Index, 2>>& sets) {
    if (ldlt.info() != Eigen::Success || !(ldlt.vectorD().array() > 0.0).all()) return false;
    const Eigen::SparseMatrix<double>& L = ldlt.matrixL().nestedExpression();
    std::vector<Index> lowerStart(1, 0);
    std::vector<std::int32_t> lowerRow;
    std::vector<double> lowerValue;
    for (Index j = 0; j < unknowns_; ++j) {
        for (Eigen::SparseMatrix<double>::InnerIterator it(L, j); it; ++it)
            if (it.row() > j) {  // the unit diagonal is implied
                lowerRow.push_back(static_cast<std::int32_t>(it.row()));
                lowerValue.push_back(it.value());
            }
        lowerStart.push_back(static_cast<Index>(lowerRow.size()));
    }
    if (sets) substitution_.set(unknowns_, lowerStart, lowerRow, lowerValue, ldlt.vectorD().cwiseInverse(), *sets);
    else substitution_.set(unknowns_, lowerStart, lowerRow, lowerValue, ldlt.vectorD().cwiseInverse());
    return true;
}

bool ProjectiveDynamics::factor(double h) {
    factored_ = false;  // until the matrix of these inputs is factored
    const Index n = mass_.size();
    stencils_.clear();
    firstStencil_.assign(1, 0);
    firstRow_.assign(1, 0);
    Index targets = 0;
    for (const ProjectiveTerm* term : terms_) {
        const std::size_t first = stencils_.size();
        term->appendProjectiveStencils(h, stencils_);
        firstStencil_.push_back(static_cast<Index>(stencils_.size()));
        for (std::size_t c = first; c < stencils_.size(); ++c) {
            const ProjectiveStencil& s = stencils_[c];
            if (s.particleCount < 0 || s.particleCount > ProjectiveStencil::kMaxParticles || s.rows < 0 ||
                s.rows > ProjectiveStencil::kMaxRows || !(s.weight >= 0.0))
                throw std::invalid_argument("projective: a malformed projective stencil");
            for (int k = 0; k < s.particleCount; ++k)
                if (s.particles[k] < 0 || s.particles[k] >= n)
                    throw std::out_of_range("projective: a stencil names a particle that does not exist");
            targets += s.rows;
            firstRow_.push_back(targets);
        }
    }
    targets_.resize(targets);
    firstState_.assign(1, 0);
    for (std::size_t t = 0; t < terms_.size(); ++t)
        firstState_.push_back(firstState_.back() + projectionStateLength(terms_[t]->projectionStateSize(),
                                                                         firstStencil_[t + 1] - firstStencil_[t]));
    projectionState_.resize(static_cast<std::size_t>(firstState_.back()));

    std::vector<Index> free(n, -1);
    unknowns_ = 0;
    for (Index i = 0; i < n; ++i)
        if (!fixed_[i]) free[i] = unknowns_++;

    // M/h^2 + sum_c w_c A_c^T A_c over the free particles (Bouaziz et al. 2014, eq. 10).
    std::vector<Eigen::Triplet<double>> entries;
    entries.reserve(unknowns_ + 4 * stencils_.size());
    for (Index i = 0; i < n; ++i)
        if (free[i] >= 0) entries.emplace_back(free[i], free[i], mass_[i] / (h * h));
    for (const ProjectiveStencil& s : stencils_)
        for (int r = 0; r < s.rows; ++r)
            for (int k = 0; k < s.particleCount; ++k)
                for (int l = 0; l < s.particleCount; ++l) {
                    const Index row = free[s.particles[k]], col = free[s.particles[l]];
                    if (row >= 0 && col >= 0)
                        entries.emplace_back(row, col, s.weight * s.coefficients[r][k] * s.coefficients[r][l]);
                }
    Eigen::SparseMatrix<double> matrix(unknowns_, unknowns_);
    matrix.setFromTriplets(entries.begin(), entries.end());
    // L's number of each free unknown, and the split of L's unknowns for the substitution.
    std::vector<Index> lNumber(static_cast<std::size_t>(unknowns_));
    const std::optional<std::array<Index, 2>> sets = findAlignedSets(free, matrix, lNumber);
    aligned_ = sets.has_value();
    if (sets) {
        Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> P(unknowns_);
        for (Index f = 0; f < unknowns_; ++f) P.indices()[f] = static_cast<int>(lNumber[static_cast<std::size_t>(f)]);
        Eigen::SparseMatrix<double> permuted(unknowns_, unknowns_);
        permuted = matrix.selfadjointView<Eigen::Lower>().twistedBy(P);
        if (!factorNumbered(
                Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::NaturalOrdering<int>>(permuted),
                sets))
            return false;
    } else {
        const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(matrix);
        for (Index f = 0; f < unknowns_; ++f) lNumber[static_cast<std::size_t>(f)] = ldlt.permutationP().indices()[f];
        if (!factorNumbered(ldlt, sets)) return false;
    }
    // Number the unknowns as the substitution does.
    unknown_.assign(n, -1);
    particle_.assign(unknowns_, -1);
    for (Index i = 0; i < n; ++i)
        if (free[i] >= 0) {
            unknown_[i] = substitution_.position(lNumber[static_cast<std::size_t>(free[i])]);
            particle_[unknown_[i]] = i;
        }

    // The right-hand side's map: w_c A_c(r, k) from each target to the row of its particle k.
    std::vector<std::tuple<Index, std::int32_t, double>> gather;
    Index target = 0;
    for (const ProjectiveStencil& s : stencils_)
        for (int r = 0; r < s.rows; ++r, ++target)
            for (int k = 0; k < s.particleCount; ++k) {
                const Index row = unknown_[s.particles[k]];
                if (row >= 0 && s.weight != 0.0 && s.coefficients[r][k] != 0.0)
                    gather.emplace_back(row, static_cast<std::int32_t>(target), s.weight * s.coefficients[r][k]);
            }
    compressRows(unknowns_, gather, gatherStart_, gatherTarget_, gatherWeight_);

    h_ = h;
    factoredTerms_ = terms_;
    factoredRevisions_.clear();
    for (const ProjectiveTerm* term : terms_) factoredRevisions_.push_back(term->projectiveRevision());
    factoredMass_ = mass_;
    factoredFixed_ = fixed_;
    ++factorizations_;
    factored_ = true;
    return true;
}

std::optional<std::array<Index, 2>> ProjectiveDynamics::findAlignedSets(const std::vector<Index>& free,
                                                                        const Eigen::SparseMatrix<double>& matrix,
                                                                        std::vector<Index>& lNumber) const {
    if (unknowns_ < kParallelUnknowns) return std::nullopt;
    // Which halves of the local step (forTermHalves) reach each free unknown: bit 0 the first's
    // stencils, bit 1 the second's.
    std::vector<int> reached(static_cast<std::size_t>(unknowns_), 0);
    for (std::size_t t = 0; t < terms_.size(); ++t)
        for (int half = 0; half < 2; ++half) {
            const auto [begin, end] = termHalf(t, half);
            for (Index c = firstStencil_[t] + begin; c < firstStencil_[t] + end; ++c) {
                const ProjectiveStencil& st = stencils_[static_cast<std::size_t>(c)];
                for (int k = 0; k < st.particleCount; ++k)
                    if (const Index f = free[st.particles[k]]; f >= 0)
                        reached[static_cast<std::size_t>(f)] |= 1 << half;
            }
        }
    // Set 0: reached by the first halves alone, set 1: by the second's; the top: by both (or
    // by none). No stencil joins the two sets, so neither does the matrix or its factor.
    std::array<std::vector<Index>, 3> members;
    for (Index f = 0; f < unknowns_; ++f) {
        const int r = reached[static_cast<std::size_t>(f)];
        members[r == 1 ? 0 : r == 2 ? 1 : 2].push_back(f);
    }
    if (members[0].empty() || members[1].empty() ||
        kMostTopShare * static_cast<double>(unknowns_) < static_cast<double>(members[2].size()))
        return std::nullopt;
    // Each part in its own minimum-degree order (AMD on its rows and columns), the top last.
    std::vector<Index> local(static_cast<std::size_t>(unknowns_), -1);
    Index next = 0;
    for (const std::vector<Index>& part : members) {
        const auto size = static_cast<Index>(part.size());
        for (Index k = 0; k < size; ++k) local[static_cast<std::size_t>(part[static_cast<std::size_t>(k)])] = k;
        std::vector<Eigen::Triplet<double>> pattern;  // the matrix's rows and columns of the part
        for (Index k = 0; k < size; ++k)
            for (Eigen::SparseMatrix<double>::InnerIterator it(matrix, part[static_cast<std::size_t>(k)]); it; ++it)
                if (const Index row = local[static_cast<std::size_t>(it.row())]; row >= 0)
                    pattern.emplace_back(row, k, 1.0);
        Eigen::SparseMatrix<double> sub(size, size);
        sub.setFromTriplets(pattern.begin(), pattern.end());
        Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> inverse;
        Eigen::AMDOrdering<int>()(sub, inverse);  // inverse.indices()[new] = old
        for (Index k = 0; k < size; ++k)
            lNumber[static_cast<std::size_t>(part[static_cast<std::size_t>(inverse.indices()[k])])] = next + k;
        for (const Index f : part) local[static_cast<std::size_t>(f)] = -1;
        next += size;
    }
    return std::array<Index, 2>{static_cast<Index>(members[0].size()), static_cast<Index>(members[1].size())};
}

std::array<Index, 2> ProjectiveDynamics::termHalf(std::size_t t, int half) const {
    return laneHalf(firstStencil_[t + 1] - firstStencil_[t], half);
}

void ProjectiveDynamics::forTermHalves(const std::function<void(std::size_t, Index, Index)>& task) {
    const auto half = [&](int which) {
        for (std::size_t t = 0; t < terms_.size(); ++t) {
            const auto [begin, end] = termHalf(t, which);
            task(t, begin, end);
        }
    };
    if (unknowns_ < kParallelUnknowns) {
        for (std::size_t t = 0; t < terms_.size(); ++t) task(t, 0, firstStencil_[t + 1] - firstStencil_[t]);
        return;
    }
    parallel_.run([&] { half(0); }, [&] { half(1); });
}

void ProjectiveDynamics::prepareTerm(std::size_t t, double h, Index begin, Index end) {
    terms_[t]->prepareProjections(x0_, h, begin, end,
                                  projectionState_.data() + firstState_[t] + terms_[t]->projectionStateSize() * begin);
}

void ProjectiveDynamics::projectTerm(std::size_t t, Index begin, Index end) {
    terms_[t]->projectTargets(x_, x0_, begin, end,
                              projectionState_.data() + firstState_[t] + terms_[t]->projectionStateSize() * begin,
                              targets_.data() + firstRow_[firstStencil_[t] + begin]);
}

void ProjectiveDynamics::gatherRows(Index first, Index last) {
    // For d = x - x0: M (y - x0) / h^2 + sum_c w_c A_c^T (p_c - A_c x0), the targets already
    // relative to the step's start.
    for (Index r = first; r < last; ++r) {
        // Two partial sums (even and odd entries): half as long a chain of additions.
        // (Fused multiply-adds: Lanes.h.)
        const auto target = [&](Index k) { return targets_[static_cast<std::size_t>(gatherTarget_[k])].array(); };
        Lanes even = inertia_.segment<4>(4 * r).array(), odd = Lanes::Zero();
        Index k = gatherStart_[r];
        for (; k + 1 < gatherStart_[r + 1]; k += 2) {
            even = multiplyAdd(gatherWeight_[k], target(k), even);
            odd = multiplyAdd(gatherWeight_[k + 1], target(k + 1), odd);
        }
        if (k < gatherStart_[r + 1]) even = multiplyAdd(gatherWeight_[k], target(k), even);
        rhs_.segment<4>(4 * r) = (even + odd).matrix();
    }
}

void ProjectiveDynamics::placeRows(Index first, Index last) {
    for (Index r = first; r < last; ++r) block3(x_, particle_[r]) = block3(x0_, particle_[r]) + rhs_.segment<3>(4 * r);
}

void ProjectiveDynamics::solveGlobal(bool positionsWanted) {
    substitution_.solve(
        rhs_, parallel_, [this](Index first, Index last) { gatherRows(first, last); },
        positionsWanted ? LdltSubstitution::RowRange([this](Index first, Index last) { placeRows(first, last); })
                        : nullptr);
}

void ProjectiveDynamics::iterateAligned(double h) {
    // Thread s keeps to its half of every term and its set of unknowns, which only that half
    // reaches: one handoff per iteration, and each core reuses its own data. The top's rows
    // take targets from both halves, so they are gathered and solved between handoffs.
    const auto setRows = [&](int s, void (ProjectiveDynamics::*task)(Index, Index)) {
        const auto [first, last] = substitution_.rows(s);
        (this->*task)(first, last);
    };
    const auto projectHalf = [&](int s) {
        for (std::size_t t = 0; t < terms_.size(); ++t) {
            const auto [begin, end] = termHalf(t, s);
            projectTerm(t, begin, end);
        }
        setRows(s, &ProjectiveDynamics::gatherRows);
        substitution_.forwardSet(s, rhs_);
    };
    const auto firstIteration = [&](int s) {
        for (std::size_t t = 0; t < terms_.size(); ++t) {
            const auto [begin, end] = termHalf(t, s);
            prepareTerm(t, h, begin, end);
        }
        projectHalf(s);
    };
    parallel_.run([&] { firstIteration(0); }, [&] { firstIteration(1); });
    for (int iteration = 1;; ++iteration) {
        setRows(2, &ProjectiveDynamics::gatherRows);
        substitution_.solveTop(rhs_);
        if (iteration == iterations_) break;
        setRows(2, &ProjectiveDynamics::placeRows);
        const auto nextIteration = [&](int s) {
            substitution_.backwardSet(s, rhs_);
            setRows(s, &ProjectiveDynamics::placeRows);
            projectHalf(s);
        };
        parallel_.run([&] { nextIteration(0); }, [&] { nextIteration(1); });
    }
    // The last iteration's x: drift(h) in step().
    parallel_.run([&] { substitution_.backwardSet(0, rhs_); }, [&] { substitution_.backwardSet(1, rhs_); });
}

void ProjectiveDynamics::step(MechanicalSystem& system, double h, StepReport& report) {
    const double t0 = system.time();
    system.setSolveTolerance(solveToleranceForOrder(1, h));
    const Index n = system.particleCount();

    system.massBlocks(massBlocks_, fixed_);
    fixed_.resize(n);  // the particles' blocks come first
    mass_.resize(n);
    for (Index i = 0; i < n; ++i) mass_[i] = massBlocks_[i](0, 0);
    system.projectiveTerms(terms_);
    if (!factorizationCurrent(h) && !factor(h)) {
        report.failure =
            "its global matrix M/h^2 + sum w A^T A could not be factored in double precision (a spring far "
            "stiffer than its particles' masses over h^2 can bear)";
        return;  // the state is as it was
    }

    // Rigid bodies and beads: symplectic Euler, from every applied force.
    const bool bodies = system.velocityDimension() > 3 * n;
    if (bodies) system.unconstrainedAccelerations(acceleration_);
    system.forcesOutsideProjectiveTerms(force_);
    ++report.derivativeEvaluations;

    // Inertial prediction y = x0 + h v0 + h^2 M^-1 f_ext; nailed particles stay put.
    x0_ = system.positions();
    const VecX& velocities = system.velocities();
    x_ = x0_;
    inertia_ = VecX::Zero(4 * unknowns_);  // 4 numbers per unknown, as the substitution takes them
    for (Index i = 0; i < n; ++i) {
        const Index row = unknown_[i];
        if (row < 0) continue;
        const Vec3 yMinusX0 = h * block3(velocities, i) + (h * h / mass_[i]) * block3(force_, i);
        block3(x_, i) += yMinusX0;
        inertia_.segment<3>(4 * row) = (mass_[i] / (h * h)) * yMinusX0;
    }
    rhs_.resize(inertia_.size());
    if (aligned_) {
        iterateAligned(h);
    } else {
        forTermHalves([&](std::size_t t, Index begin, Index end) { prepareTerm(t, h, begin, end); });
        for (int iteration = 0; iteration < iterations_; ++iteration) {
            forTermHalves([&](std::size_t t, Index begin, Index end) { projectTerm(t, begin, end); });
            solveGlobal(iteration + 1 < iterations_);  // the last iteration's x: drift(h) below
        }
    }

    velocity_ = velocities;
    for (Index i = 0; i < n; ++i)
        if (unknown_[i] >= 0) block3(velocity_, i) = rhs_.segment<3>(4 * unknown_[i]) / h;  // d / h
    if (bodies) velocity_.tail(velocity_.size() - 3 * n) += h * acceleration_.tail(velocity_.size() - 3 * n);
    system.setVelocities(velocity_);
    system.drift(h);
    system.constrainPositions(h);
    system.constrainVelocities();
    system.setTime(t0 + h);
}

}  // namespace tinkerbox
