#include "core/integrators/WarmStart.h"

#include <utility>

namespace tinkerbox {

namespace {
// The extrapolation of degree d from solutions newest first.
void extrapolate(const std::array<VecX, 3>& x, int degree, VecX& out) {
    if (degree == 0) out = x[0];
    else if (degree == 1) out = 2.0 * x[0] - x[1];
    else out = 3.0 * x[0] - 3.0 * x[1] + x[2];
}
}  // namespace

void WarmStart::predict(Index size, VecX& start) const {
    if (count_ == 0 || solutions_[0].size() != size) {
        start = VecX::Zero(size);
        return;
    }
    extrapolate(solutions_, degree_, start);
}

void WarmStart::record(const VecX& solution) {
    if (count_ > 0 && solutions_[0].size() != solution.size()) count_ = 0;
    // The degree that would have predicted this solution best (the lowest of equals).
    degree_ = 0;
    double best = 0.0;
    VecX predicted;
    for (int degree = 0; degree < count_; ++degree) {
        extrapolate(solutions_, degree, predicted);
        const double error = (solution - predicted).squaredNorm();
        if (degree == 0 || error < best) {
            best = error;
            degree_ = degree;
        }
    }
    std::swap(solutions_[2], solutions_[1]);
    std::swap(solutions_[1], solutions_[0]);
    solutions_[0] = solution;
    if (count_ < 3) ++count_;
}

Index WarmStart::memorySize() const { return 2 + count_ * (count_ > 0 ? solutions_[0].size() : 0); }

void WarmStart::save(VecX& memory, Index offset) const {
    memory[offset] = degree_;
    memory[offset + 1] = count_;
    for (int k = 0; k < count_; ++k)
        memory.segment(offset + 2 + k * solutions_[k].size(), solutions_[k].size()) = solutions_[k];
}

void WarmStart::restore(const VecX& memory, Index offset) {
    count_ = 0;
    degree_ = 0;
    if (memory.size() < offset + 2) return;
    const int count = static_cast<int>(memory[offset + 1]);
    if (count <= 0 || count > 3) return;
    const Index size = (memory.size() - offset - 2) / count;
    for (int k = 0; k < count; ++k) solutions_[k] = memory.segment(offset + 2 + k * size, size);
    count_ = count;
    degree_ = static_cast<int>(memory[offset]);
}

}  // namespace tinkerbox
