#include "core/integrators/VelocityFilter.h"

#include <cmath>

namespace tinkerbox {

namespace {
// |S n| below this: n lies within about half a degree of the constrained span.
constexpr double kIndependent = 1e-2;
}  // namespace

void VelocityFilter::constrain(const Vec3& n, double target) {
    if (count == 3) return;
    // The part of n across the constraints already there: a new orthonormal direction e,
    // which leaves their n_k . z alone (n_k . e = 0). n . S n = |S n|^2, so the step a
    // along e that meets n . z = target is (target - n . z) / |S n|.
    const Vec3 across = free * n;
    const double length = across.norm();
    if (length < kIndependent) return;
    const Vec3 e = across / length;
    change += ((target - n.dot(change)) / length) * e;
    free -= e * e.transpose();
    normals[count++] = n;
}

void FilteredSystem::apply(const std::vector<VelocityFilter>& filters, BlockSparseMatrix& J, std::vector<Mat3>& mass,
                           VecX& rhs, VecX& x) {
    filters_ = filters;
    const Index n = J.blockRows();
    filterOf_.assign(n, -1);
    for (std::size_t f = 0; f < filters.size(); ++f) filterOf_[filters[f].block] = static_cast<int>(f);
    const auto& rowStart = J.rowStarts();
    const auto& column = J.columns();
    couplings_.clear();
    for (Index i = 0; i < n; ++i)
        for (Index k = rowStart[i]; k < rowStart[i + 1]; ++k)
            if (filterOf_[i] >= 0 || filterOf_[column[k]] >= 0) couplings_.push_back({i, column[k], k, J.value(k)});

    mass_.resize(filters.size());
    rhs_.resize(filters.size());
    for (std::size_t f = 0; f < filters.size(); ++f) {
        mass_[f] = mass[filters[f].block];
        rhs_[f] = block3(rhs, filters[f].block);
    }
    const auto change = [&](Index i) { return filterOf_[i] >= 0 ? filters_[filterOf_[i]].change : Vec3::Zero(); };
    const auto free = [&](Index i) { return filterOf_[i] >= 0 ? filters_[filterOf_[i]].free : Mat3::Identity(); };
    // rhs - A z, z being zero outside the filtered blocks.
    for (const Coupling& c : couplings_) {
        block3(rhs, c.row) -= c.value * change(c.column);
        if (c.column != c.row) block3(rhs, c.column) -= c.value.transpose() * change(c.row);
    }
    for (std::size_t f = 0; f < filters.size(); ++f) block3(rhs, filters[f].block) -= mass_[f] * filters[f].change;
    // S (rhs - A z), S J S, S M S + P M P, S x. P M P is taken as mu P with mu the mean of
    // M's diagonal (a particle's m): the constrained directions keep the block's own scale.
    for (const Coupling& c : couplings_) J.value(c.stored) = free(c.row) * c.value * free(c.column);
    for (std::size_t f = 0; f < filters.size(); ++f) {
        const VelocityFilter& filter = filters[f];
        const Mat3 constrained = Mat3::Identity() - filter.free;
        block3(rhs, filter.block) = filter.free * block3(rhs, filter.block);
        mass[filter.block] = filter.free * mass_[f] * filter.free + (mass_[f].trace() / 3.0) * constrained;
        if (x.size() == rhs.size()) block3(x, filter.block) = filter.free * block3(x, filter.block);
    }
}

void FilteredSystem::recover(VecX& dv) const {
    for (const VelocityFilter& filter : filters_)
        block3(dv, filter.block) = filter.free * block3(dv, filter.block) + filter.change;
}

void FilteredSystem::impulses(const VecX& dv, std::vector<Vec3>& out) const {
    out.resize(filters_.size());
    for (std::size_t f = 0; f < filters_.size(); ++f) out[f] = mass_[f] * block3(dv, filters_[f].block) - rhs_[f];
    for (const Coupling& c : couplings_) {
        if (filterOf_[c.row] >= 0) out[filterOf_[c.row]] += c.value * block3(dv, c.column);
        if (c.column != c.row && filterOf_[c.column] >= 0)
            out[filterOf_[c.column]] += c.value.transpose() * block3(dv, c.row);
    }
}

void FilteredSystem::pulling(const std::vector<Vec3>& impulses, std::vector<Index>& blocks) const {
    blocks.clear();
    for (std::size_t f = 0; f < filters_.size(); ++f) {
        const VelocityFilter& filter = filters_[f];
        bool pulls = false;
        for (int k = 0; k < filter.count; ++k) pulls = pulls || filter.normals[k].dot(impulses[f]) < 0.0;
        if (pulls) blocks.push_back(filter.block);
    }
}

}  // namespace tinkerbox
