#include "core/math/SgsConjugateGradient.h"

#include <array>
#include <cmath>

#include "core/math/Double4.h"

namespace tinkerbox {

// The sweeps are the solver's inner loops: they walk the scaled matrix through restrict
// pointers, so that writing a vector never makes the compiler reload the matrix. A block's
// rows are read as 4 floats each, widened to doubles (the fourth is the next row's first
// entry), and multiply vectors whose fourth lane is zero.
namespace {

struct SweepView {
    const Index* __restrict rowStart;
    const Index* __restrict separatorStart;
    const std::int32_t* __restrict column;
    const float* __restrict blocks;
    Index separatorBegin;
    Double4 omega = broadcast4(SgsConjugateGradient::kRelaxation);
    Double4 twoOverOmegaLessOne = broadcast4(2.0 / SgsConjugateGradient::kRelaxation - 1.0);

    explicit SweepView(const ScaledSweepMatrix& m)
        : rowStart(m.rowStart()),
          separatorStart(m.separatorStart()),
          column(m.column()),
          blocks(m.blocks()),
          separatorBegin(m.separator().first) {}
};

// Whether row r's first block is its next row's, which the sweeps keep in a register (the
// row they just finished or are about to start) instead of a round trip through memory.
inline bool nextRowFirst(const SweepView& m, ScaledSweepMatrix::Rows rows, Index r, Index first, Index last) {
    return first < last && m.column[first] == r + 1 && r + 1 < rows.last;
}

// Rows last - 1 down to first: v_r = input(r), t_r = omega (v_r - sum_c U_rc t_c) (t = E^T^-1 v),
// out_r = v_r - (2/omega - 1) t_r. Returns the lanes of sum_r v_r * v_r. A row's blocks are taken
// from its last column down, so that t_{r+1}, the newest, comes last in its dependency chain.
template <class Input>
Double4 backwardSweep(const SweepView& m, ScaledSweepMatrix::Rows rows, Input&& input, double* __restrict t,
                      double* __restrict out) {
    Double4 squares = zero4(), tNext = zero4();  // tNext: t of the row done before this one
    for (Index r = rows.last - 1; r >= rows.first; --r) {
        Double4 sum0 = zero4(), sum1 = zero4(), sum2 = zero4();  // per row of U_rc, its products' lanes
        const auto add = [&](Index k, Double4 tc) {
            const float* b = m.blocks + 9 * k;
            sum0 = multiplyAdd(load4(b), tc, sum0);
            sum1 = multiplyAdd(load4(b + 3), tc, sum1);
            sum2 = multiplyAdd(load4(b + 6), tc, sum2);
        };
        const Index first = m.rowStart[r], last = m.rowStart[r + 1];
        const bool next = nextRowFirst(m, rows, r, first, last);
        for (Index k = last - 1; k >= first + (next ? 1 : 0); --k)
            add(k, load4(t + 4 * static_cast<Index>(m.column[k])));
        if (next) add(first, tNext);
        const Double4 sum = laneSums3(sum0, sum1, sum2);
        const Double4 v = input(r);
        tNext = m.omega * (v - sum);
        store4(t + 4 * r, tNext);
        store4(out + 4 * r, v - m.twoOverOmegaLessOne * tNext);
        squares = multiplyAdd(v, v, squares);
    }
    return squares;
}

// U_rc^T y for block k (its rows read as 4 floats, widened; y's lanes broadcast).
inline Double4 transposedProduct(const SweepView& m, Index k, Double4 y0, Double4 y1, Double4 y2) {
    const float* b = m.blocks + 9 * k;
    return multiplyAdd(load4(b + 6), y2, multiplyAdd(load4(b + 3), y1, load4(b) * y0));
}

// out_c -= U_rc^T y for the blocks k of row r from first to last - 1 (columns shifted by base).
inline void scatterColumns(const SweepView& m, Index first, Index last, Double4 y0, Double4 y1, Double4 y2, Index base,
                           double* __restrict out) {
    for (Index k = first; k < last; ++k) {
        double* target = out + 4 * (static_cast<Index>(m.column[k]) - base);
        store4(target, firstThree(load4(target) - transposedProduct(m, k, y0, y1, y2)));
    }
}

// Rows first to last - 1: with y_r = omega out_r (out_r less what the rows before it
// subtracted; y = E^-1 out), subtract U_rc^T y_r from out_c (from separatorOut_c for separator
// columns), and set out_r = y_r + t_r (y_r where t is null). Returns the lanes of
// sum_r out_r * v_r (zero where v is null). The next row's out, when it is the first column,
// stays in a register.
Double4 forwardSweep(const SweepView& m, ScaledSweepMatrix::Rows rows, const double* __restrict t,
                     const double* __restrict v, double* __restrict out, double* __restrict separatorOut) {
    Double4 products = zero4(), yNext = zero4();
    bool haveNext = false;
    for (Index r = rows.first; r < rows.last; ++r) {
        const Double4 y = m.omega * (haveNext ? yNext : load4(out + 4 * r));
        const Double4 y0 = lane4<0>(y), y1 = lane4<1>(y), y2 = lane4<2>(y);
        Index first = m.rowStart[r];
        haveNext = nextRowFirst(m, rows, r, first, m.separatorStart[r]);
        if (haveNext) {
            yNext = firstThree(load4(out + 4 * (r + 1)) - transposedProduct(m, first, y0, y1, y2));
            ++first;
        }
        scatterColumns(m, first, m.separatorStart[r], y0, y1, y2, 0, out);
        scatterColumns(m, m.separatorStart[r], m.rowStart[r + 1], y0, y1, y2, m.separatorBegin, separatorOut);
        const Double4 result = t ? y + load4(t + 4 * r) : y;
        store4(out + 4 * r, result);
        if (v) products = multiplyAdd(result, load4(v + 4 * r), products);
    }
    return products;
}

// v <- E^T v = v / omega + U v over the rows, in ascending order (each reads only later rows of
// its part and the separator's, not yet changed).
void multiplyUpper(const SweepView& m, ScaledSweepMatrix::Rows rows, double* __restrict v) {
    for (Index r = rows.first; r < rows.last; ++r) {
        Double4 sum0 = zero4(), sum1 = zero4(), sum2 = zero4();
        for (Index k = m.rowStart[r]; k < m.rowStart[r + 1]; ++k) {
            const float* b = m.blocks + 9 * k;
            const Double4 vc = load4(v + 4 * static_cast<Index>(m.column[k]));
            sum0 = multiplyAdd(load4(b), vc, sum0);
            sum1 = multiplyAdd(load4(b + 3), vc, sum1);
            sum2 = multiplyAdd(load4(b + 6), vc, sum2);
        }
        store4(v + 4 * r,
               broadcast4(1.0 / SgsConjugateGradient::kRelaxation) * load4(v + 4 * r) + laneSums3(sum0, sum1, sum2));
    }
}

Double4 row4(const Vec3& a) {
    const double lanes[4] = {a[0], a[1], a[2], 0.0};
    return load4(lanes);
}

Vec3 row3(const double* a) { return Vec3(a[0], a[1], a[2]); }

}  // namespace

template <class Task>
void SgsConjugateGradient::forParts(Task&& task) {
    if (!matrix_.split()) {
        task(matrix_.firstPart(), 0);
        return;
    }
    parallel_.run([&] { task(matrix_.firstPart(), 0); }, [&] { task(matrix_.secondPart(), 1); });
}

template <class Task>
void SgsConjugateGradient::forRows(Task&& task) {
    forParts([&](ScaledSweepMatrix::Rows rows, int) { task(rows); });
    task(matrix_.separator());
}

template <class Input>
std::pair<double, double> SgsConjugateGradient::product(Input&& input, const VecX& v, VecX& out) {
    // A^ v = t + E^-1 (v - (2/omega - 1) t), t = E^-T v: the backward sweep leaves the
    // bracket in out, the forward sweep turns it into the result. Backwards the separator
    // comes first, forwards last.
    const SweepView m(matrix_);
    const ScaledSweepMatrix::Rows separator = matrix_.separator();
    const Index separatorRows = separator.last - separator.first;
    Double4 squares[3], products[3];
    squares[2] = backwardSweep(m, separator, input, t_.data(), out.data());
    forParts([&](ScaledSweepMatrix::Rows rows, int part) {
        squares[part] = backwardSweep(m, rows, input, t_.data(), out.data());
        VecX& sums = separatorSums_[part];
        sums.setZero(4 * separatorRows);
        products[part] = forwardSweep(m, rows, t_.data(), v.data(), out.data(), sums.data());
    });
    addSeparatorSums(out);
    products[2] = forwardSweep(m, separator, t_.data(), v.data(), out.data(), nullptr);
    if (!matrix_.split()) squares[1] = products[1] = zero4();
    return {(laneSum(squares[0]) + laneSum(squares[1])) + laneSum(squares[2]),
            (laneSum(products[0]) + laneSum(products[1])) + laneSum(products[2])};
}

void SgsConjugateGradient::addSeparatorSums(VecX& out) const {
    const ScaledSweepMatrix::Rows separator = matrix_.separator();
    for (Index r = separator.first; r < separator.last; ++r)
        for (const VecX& sums : separatorSums_)
            store4(out.data() + 4 * r, load4(out.data() + 4 * r) + load4(sums.data() + 4 * (r - separator.first)));
}

void SgsConjugateGradient::solveUpper(VecX& v) {
    // Backwards: the separator, then the parts; t_ takes the result.
    const SweepView m(matrix_);
    const auto input = [&](Index r) { return load4(v.data() + 4 * r); };
    product_.resize(v.size());
    backwardSweep(m, matrix_.separator(), input, t_.data(), product_.data());
    forParts([&](ScaledSweepMatrix::Rows rows, int) { backwardSweep(m, rows, input, t_.data(), product_.data()); });
    v.swap(t_);
}

void SgsConjugateGradient::solveLower(VecX& v) {
    // Forwards: the parts, then the separator, in place.
    const SweepView m(matrix_);
    const ScaledSweepMatrix::Rows separator = matrix_.separator();
    forParts([&](ScaledSweepMatrix::Rows rows, int part) {
        VecX& sums = separatorSums_[part];
        sums.setZero(4 * (separator.last - separator.first));
        forwardSweep(m, rows, nullptr, nullptr, v.data(), sums.data());
    });
    addSeparatorSums(v);
    forwardSweep(m, separator, nullptr, nullptr, v.data(), nullptr);
}

void SgsConjugateGradient::prepare(const BlockSparseMatrix& J, const std::vector<Mat3>& mass,
                                   const std::vector<char>& fixed) {
    matrix_.assign(J, mass, fixed, parallel_);
    const Index n = matrix_.rows();
    // Zeroed when resized only: each solve writes every row of them before it reads it, and
    // the fourth lanes stay zero (a sweep's sums have a zero fourth lane). Zeroing them at each
    // step cost a pass over 4 MB on a 128 x 128 cloth.
    if (bHat_.size() == 4 * n) return;
    const std::array<VecX*, 8> vectors{&bHat_, &xHat_, &r_, &p_, &w_, &s_, &t_, &product_};
    for (VecX* v : vectors) v->resize(4 * n);
    forRows([&](ScaledSweepMatrix::Rows rows) {
        for (VecX* v : vectors) v->segment(4 * rows.first, 4 * (rows.last - rows.first)).setZero();
    });
}

void SgsConjugateGradient::applyPreconditioned(const VecX& v, VecX& out) {
    const Index n = matrix_.rows();
    for (Index r = 0; r < n; ++r) store4(r_.data() + 4 * r, row4(block3(v, matrix_.originalRow(r))));
    product([&](Index r) { return load4(r_.data() + 4 * r); }, r_, product_);
    out.resize(3 * n);
    for (Index r = 0; r < n; ++r) block3(out, matrix_.originalRow(r)) = row3(product_.data() + 4 * r);
}

double SgsConjugateGradient::bytesPerProduct() const {
    const double rows = static_cast<double>(matrix_.rows());
    const double blocks = static_cast<double>(matrix_.blockCount());
    return 2.0 * blocks * (9 * sizeof(float) + sizeof(std::int32_t)) + 5.0 * rows * 4 * sizeof(double);
}

void SgsConjugateGradient::scaleIn(const VecX& v, const std::vector<char>& fixed, VecX& hat) {
    // hat = E^-1 G^-1 v, fixed rows removed. (Row by row, the parts' rows at once: the same
    // numbers either way.)
    const ScaledSweepMatrix& m = matrix_;
    forRows([&](ScaledSweepMatrix::Rows rows) {
        for (Index r = rows.first; r < rows.last; ++r) {
            const Index i = m.originalRow(r);
            store4(hat.data() + 4 * r, fixed[i] ? zero4() : row4(m.factorInverse(i) * block3(v, i)));
        }
    });
    solveLower(hat);
}

void SgsConjugateGradient::scaleOut(VecX& hat, const std::vector<char>& fixed, VecX& x, bool add) {
    // x (+)= G^-T E^-T hat; hat is overwritten.
    const ScaledSweepMatrix& m = matrix_;
    solveUpper(hat);
    forRows([&](ScaledSweepMatrix::Rows rows) {
        for (Index r = rows.first; r < rows.last; ++r) {
            const Index i = m.originalRow(r);
            const Vec3 value =
                fixed[i] ? Vec3::Zero() : Vec3(m.factorInverse(i).transpose() * row3(hat.data() + 4 * r));
            if (add) block3(x, i) += value;
            else block3(x, i) = value;
        }
    });
}

void SgsConjugateGradient::residualOf(const BlockSparseMatrix& J, const std::vector<Mat3>& mass,
                                      const std::vector<char>& fixed, const VecX& rhs, const VecX& x) {
    J.multiply(x, residual_);
    for (Index i = 0; i < J.blockRows(); ++i)
        block3(residual_, i) = block3(rhs, i) - block3(residual_, i) - mass[i] * block3(x, i);
    scaleIn(residual_, fixed, r_);
}

double SgsConjugateGradient::iterate(double target, int maxIterations, CgResult& result) {
    // Chronopoulos and Gear: with w = A^ r, gamma = r . r, delta = w . r,
    //   beta = gamma / gamma_old, alpha = gamma / (delta - beta gamma / alpha_old),
    //   p = r + beta p, s = w + beta s (= A^ p), x += alpha p, r -= alpha s.
    auto [gamma, delta] = product([&](Index r) { return load4(r_.data() + 4 * r); }, r_, w_);
    double alpha = gamma / delta, beta = 0.0, denominator = delta, residual = std::sqrt(gamma);
    p_.setZero();
    s_.setZero();
    while (result.iterations < maxIterations) {
        if (!(denominator > 0.0)) {
            result.breakdown = true;  // a direction in the (near) null space: A is (nearly) singular
            break;
        }
        const Double4 a = broadcast4(alpha), minusA = broadcast4(-alpha), b = broadcast4(beta);
        // Row r's updates, in the backward sweep just before it reads r_r.
        const auto update = [&, x = xHat_.data(), r = r_.data(), p = p_.data(), w = w_.data(),
                             s = s_.data()](Index row) {
            const Index at = 4 * row;
            const Double4 pr = multiplyAdd(b, load4(p + at), load4(r + at));
            const Double4 sr = multiplyAdd(b, load4(s + at), load4(w + at));
            const Double4 rNext = multiplyAdd(minusA, sr, load4(r + at));
            store4(p + at, pr);
            store4(s + at, sr);
            store4(x + at, multiplyAdd(a, pr, load4(x + at)));
            store4(r + at, rNext);
            return rNext;
        };
        const auto [gammaNext, deltaNext] = product(update, r_, product_);
        w_.swap(product_);
        ++result.iterations;
        residual = std::sqrt(gammaNext);
        if (residual <= target) break;
        beta = gammaNext / gamma;
        denominator = deltaNext - beta * gammaNext / alpha;
        alpha = gammaNext / denominator;
        gamma = gammaNext;
    }
    return residual;
}

CgResult SgsConjugateGradient::solve(const BlockSparseMatrix& J, const std::vector<Mat3>& mass,
                                     const std::vector<char>& fixed, const VecX& rhs, VecX& x,
                                     const CgSettings& settings) {
    const Index n = J.blockRows();
    if (n == 0) return {};
    prepare(J, mass, fixed);
    scaleIn(rhs, fixed, bHat_);  // b^ = E^-1 G^-1 rhs
    CgResult result;
    const double bNorm = bHat_.norm();
    if (x.size() != 3 * n) x = VecX::Zero(3 * n);
    if (bNorm == 0.0) {
        x.setZero();
        return result;
    }
    const double target = settings.tolerance * bNorm;
    const bool refine = settings.tolerance < kRefinedTolerance;
    if (refine) {
        for (Index i = 0; i < n; ++i)
            if (fixed[i]) block3(x, i).setZero();
        residualOf(J, mass, fixed, rhs, x);
    } else {
        // x^ = E^T G^T x: the parts' rows at once, then the separator's (which the parts' read).
        const ScaledSweepMatrix& m = matrix_;
        forRows([&](ScaledSweepMatrix::Rows rows) {
            for (Index r = rows.first; r < rows.last; ++r) {
                const Index i = m.originalRow(r);
                store4(xHat_.data() + 4 * r, fixed[i] ? zero4() : row4(m.factor(i).transpose() * block3(x, i)));
            }
        });
        forRows([&](ScaledSweepMatrix::Rows rows) { multiplyUpper(SweepView(m), rows, xHat_.data()); });
        // r = b^ - A^ x^
        product([&](Index r) { return load4(xHat_.data() + 4 * r); }, xHat_, product_);
        r_ = bHat_ - product_;
    }
    // A start worse than zero is dropped for zero (ConjugateGradient.h).
    double residual = r_.norm();
    if (residual > bNorm) {
        x.setZero();
        xHat_.setZero();
        r_ = bHat_;
        residual = bNorm;
    }
    if (refine) {
        // Each pass solves for the correction of x to the residual of the whole system, computed
        // from J in double precision (the float matrix's rounding stays out of the answer).
        for (int pass = 0; residual > target && pass < kMaxRefinements && result.iterations < settings.maxIterations &&
                           !result.breakdown;
             ++pass) {
            xHat_.setZero();
            iterate(target, settings.maxIterations, result);
            scaleOut(xHat_, fixed, x, true);
            residualOf(J, mass, fixed, rhs, x);
            residual = r_.norm();
        }
    } else {
        if (residual > target) residual = iterate(target, settings.maxIterations, result);
        scaleOut(xHat_, fixed, x, false);
    }
    result.relativeResidual = residual / bNorm;
    result.converged = residual <= target;
    return result;
}

}  // namespace tinkerbox
