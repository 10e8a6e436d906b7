#include "core/math/SgsConjugateGradient.h"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <stdexcept>

namespace tinkerbox {

void SgsConjugateGradient::scale(BlockSparseMatrix& J, const std::vector<Mat3>& mass, const std::vector<char>& fixed) {
    if (J.storage() != BlockSparseMatrix::Storage::Upper)
        throw std::invalid_argument("SgsConjugateGradient: the matrix must have Upper storage");
    const Index n = J.blockRows();
    scaled_ = &J;
    split_ = n >= kSplitRows ? n / 2 : n;
    factor_.resize(n);
    factorInverse_.resize(n);
    halfEnd_.resize(n);
    // Every row on its own, so the halves can do theirs at once.
    forHalves([&](Index first, Index last) {
        for (Index i = first; i < last; ++i) {
            if (fixed[i]) {
                factor_[i].setIdentity();
                factorInverse_[i].setIdentity();
                continue;
            }
            Mat3 diagonal = J.diagonal(i);
            diagonal += mass[i];
            factor_[i] = diagonal.llt().matrixL();
            factorInverse_[i] = factor_[i].inverse();
        }
    });
    const auto& rowStart = J.rowStarts();
    const auto& column = J.columns();
    forHalves([&](Index first, Index last) {
        for (Index i = first; i < last; ++i) {
            for (Index k = J.diagonalIndex(i) + 1; k < rowStart[i + 1]; ++k) {
                const Index j = column[k];
                Mat3& block = J.value(k);
                if (fixed[i] || fixed[j]) block.setZero();
                else block = factorInverse_[i] * block * factorInverse_[j].transpose();
            }
            Index end = rowStart[i + 1];
            if (i < split_)
                while (end > rowStart[i] + 1 && column[end - 1] >= split_) --end;  // columns are sorted
            halfEnd_[i] = end;
        }
    });
    seamRows_.clear();
    for (Index i = 0; i < split_; ++i)
        if (halfEnd_[i] < rowStart[i + 1]) seamRows_.push_back(i);
}

// The sweeps are the solver's inner loops: they walk the scaled matrix through restrict
// pointers, so that writing a vector never makes the compiler reload the matrix.
// Blocks are column-major, B(r, c) = b[r + 3 c]; each row starts with its diagonal block,
// which the sweeps skip (after scaling it is the identity).
namespace {

// Only the blocks within a row's half take part in the sweeps (U_in, L_in): a row's blocks
// are start[i] (the diagonal) .. end[i] - 1; the coupling blocks follow up to start[i + 1].
struct ScaledRows {
    const Index* __restrict start;
    const Index* __restrict end;
    const std::int32_t* __restrict column;
    const double* __restrict blocks;

    ScaledRows(const BlockSparseMatrix& m, const std::vector<Index>& halfEnd)
        : start(m.rowStarts().data()), end(halfEnd.data()), column(m.columns().data()), blocks(m.value(0).data()) {}

    // sum = sum over j > i of U_ij x_j, j in i's half
    void upperRowProduct(Index i, const double* __restrict x, double sum[3]) const {
        sum[0] = sum[1] = sum[2] = 0.0;
        for (Index k = start[i] + 1; k < end[i]; ++k) {
            const double* b = blocks + 9 * k;
            const double* xj = x + 3 * static_cast<Index>(column[k]);
            sum[0] += b[0] * xj[0] + b[3] * xj[1] + b[6] * xj[2];
            sum[1] += b[1] * xj[0] + b[4] * xj[1] + b[7] * xj[2];
            sum[2] += b[2] * xj[0] + b[5] * xj[1] + b[8] * xj[2];
        }
    }

    // y_j -= U_ij^T x_i for j > i in i's half (column i of L)
    void scatterLowerColumn(Index i, const double xi[3], double* __restrict y) const {
        for (Index k = start[i] + 1; k < end[i]; ++k) {
            const double* b = blocks + 9 * k;
            double* yj = y + 3 * static_cast<Index>(column[k]);
            yj[0] -= b[0] * xi[0] + b[1] * xi[1] + b[2] * xi[2];
            yj[1] -= b[3] * xi[0] + b[4] * xi[1] + b[5] * xi[2];
            yj[2] -= b[6] * xi[0] + b[7] * xi[1] + b[8] * xi[2];
        }
    }
};

}  // namespace

void SgsConjugateGradient::forHalves(const std::function<void(Index, Index)>& task) {
    const Index n = scaled_->blockRows();
    if (split_ == n) {
        task(0, n);
        return;
    }
    parallel_.run([&] { task(0, split_); }, [&] { task(split_, n); });
}

namespace {

// The sweeps of one half, rows first .. last - 1, through restrict pointers of their own
// (called from a lambda, whose captures the compiler would otherwise reload after every write).

// v <- (I + U_in)^-1 v
void backSubstitute(const ScaledRows& rows, double* __restrict v, Index first, Index last) {
    for (Index i = last - 1; i >= first; --i) {
        double sum[3];
        rows.upperRowProduct(i, v, sum);
        for (int c = 0; c < 3; ++c) v[3 * i + c] -= sum[c];
    }
}

// v <- (I + L_in)^-1 v: column i of L is row i of U transposed; once v_i is final, remove
// its part below.
void forwardSubstitute(const ScaledRows& rows, double* __restrict v, Index first, Index last) {
    for (Index i = first; i < last; ++i) {
        const double vi[3] = {v[3 * i], v[3 * i + 1], v[3 * i + 2]};
        rows.scatterLowerColumn(i, vi, v);
    }
}

// The backward sweep of A^ v: t = (I + U_in)^-1 v, and v - t (the row sums) in out.
void backwardSweep(const ScaledRows& rows, const double* __restrict v, double* __restrict t, double* __restrict out,
                   Index first, Index last) {
    for (Index i = last - 1; i >= first; --i) {
        double sum[3];
        rows.upperRowProduct(i, t, sum);
        for (int c = 0; c < 3; ++c) {
            t[3 * i + c] = v[3 * i + c] - sum[c];
            out[3 * i + c] = sum[c];
        }
    }
}

// The forward sweep of A^ v: out <- t + (I + L_in)^-1 out, out holding v - t + (L_c + U_c) t.
void forwardSweep(const ScaledRows& rows, const double* __restrict t, double* __restrict out, Index first, Index last) {
    for (Index i = first; i < last; ++i) {
        const double si[3] = {out[3 * i], out[3 * i + 1], out[3 * i + 2]};
        rows.scatterLowerColumn(i, si, out);
        for (int c = 0; c < 3; ++c) out[3 * i + c] = si[c] + t[3 * i + c];
    }
}

// The coupling blocks (U_c, after the half's own in each seam row) on t: out_i += U_c t on the
// first half's seam rows (into == first), or out_j += U_c^T t on the second half's rows.
void addCoupling(const BlockSparseMatrix& m, const std::vector<Index>& halfEnd, const std::vector<Index>& seamRows,
                 bool firstHalf, const double* __restrict t, double* __restrict out) {
    const Index* start = m.rowStarts().data();
    const std::int32_t* column = m.columns().data();
    const double* blocks = m.value(0).data();
    for (const Index i : seamRows)
        for (Index k = halfEnd[i]; k < start[i + 1]; ++k) {
            const double* b = blocks + 9 * k;
            const Index j = column[k];
            if (firstHalf) {
                const double* tj = t + 3 * j;
                out[3 * i] += b[0] * tj[0] + b[3] * tj[1] + b[6] * tj[2];
                out[3 * i + 1] += b[1] * tj[0] + b[4] * tj[1] + b[7] * tj[2];
                out[3 * i + 2] += b[2] * tj[0] + b[5] * tj[1] + b[8] * tj[2];
            } else {
                const double* ti = t + 3 * i;
                out[3 * j] += b[0] * ti[0] + b[1] * ti[1] + b[2] * ti[2];
                out[3 * j + 1] += b[3] * ti[0] + b[4] * ti[1] + b[5] * ti[2];
                out[3 * j + 2] += b[6] * ti[0] + b[7] * ti[1] + b[8] * ti[2];
            }
        }
}

}  // namespace

void SgsConjugateGradient::solveUpper(VecX& v) {
    const ScaledRows rows(*scaled_, halfEnd_);
    forHalves([&](Index first, Index last) { backSubstitute(rows, v.data(), first, last); });
}

void SgsConjugateGradient::solveLower(VecX& v) {
    const ScaledRows rows(*scaled_, halfEnd_);
    forHalves([&](Index first, Index last) { forwardSubstitute(rows, v.data(), first, last); });
}

void SgsConjugateGradient::applyPreconditioned(const VecX& v, VecX& out) {
    // A^ v = t + (I + L_in)^-1 (v - t + (L_c + U_c) t) with t = (I + U_in)^-1 v, in two sweeps
    // and no other pass: the backward sweep leaves v - t (its row sums) in out, the forward
    // sweep adds the coupling and t back.
    const ScaledRows rows(*scaled_, halfEnd_);
    t_.resize(v.size());
    out.resize(v.size());
    forHalves([&](Index first, Index last) { backwardSweep(rows, v.data(), t_.data(), out.data(), first, last); });
    forHalves([&](Index first, Index last) {
        addCoupling(*scaled_, halfEnd_, seamRows_, first == 0, t_.data(), out.data());
        forwardSweep(rows, t_.data(), out.data(), first, last);
    });
}

double SgsConjugateGradient::bytesPerProduct() const {
    const double rows = static_cast<double>(scaled_->blockRows());
    const double offDiagonal = static_cast<double>(scaled_->storedBlocks()) - rows;
    return 2.0 * offDiagonal * (sizeof(Mat3) + sizeof(std::int32_t)) + 5.0 * rows * 3 * sizeof(double);
}

CgResult SgsConjugateGradient::solve(BlockSparseMatrix& J, const std::vector<Mat3>& mass, const std::vector<char>& fixed,
                                     const VecX& rhs, VecX& x, const CgSettings& settings) {
    const Index n = J.blockRows();
    if (n == 0) return {};
    scale(J, mass, fixed);
    // b^ = (I + L_in)^-1 G^-1 rhs, with fixed rows removed.
    bHat_.resize(3 * n);
    for (Index i = 0; i < n; ++i)
        block3(bHat_, i) = fixed[i] ? Vec3::Zero() : Vec3(factorInverse_[i] * block3(rhs, i));
    solveLower(bHat_);
    // x^ = (I + U_in) G^T x
    if (x.size() != 3 * n) x = VecX::Zero(3 * n);
    t_.resize(3 * n);
    for (Index i = 0; i < n; ++i) block3(t_, i) = fixed[i] ? Vec3::Zero() : Vec3(factor_[i].transpose() * block3(x, i));
    xHat_ = t_;
    const auto& column = J.columns();
    for (Index i = 0; i < n; ++i)
        for (Index k = J.diagonalIndex(i) + 1; k < halfEnd_[i]; ++k)
            block3(xHat_, i) += J.value(k) * block3(t_, column[k]);

    const auto applyHat = [&](const VecX& v, VecX& out) { applyPreconditioned(v, out); };
    const auto identity = [](const VecX& r, VecX& z) { z = r; };
    const CgResult result = conjugateGradient(applyHat, identity, bHat_, xHat_, settings, work_);

    // x = G^-T (I + U_in)^-1 x^
    solveUpper(xHat_);
    for (Index i = 0; i < n; ++i) block3(x, i) = factorInverse_[i].transpose() * block3(xHat_, i);
    return result;
}

}  // namespace tinkerbox
