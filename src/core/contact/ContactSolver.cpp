#include "core/contact/ContactSolver.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>
#include <utility>

#include "core/contact/ContactFrame.h"
#include "core/dynamics/World.h"

namespace tinkerbox {

double positionResponse(const World& world, const VecX& start, double h) {
    const RigidBodies& bodies = world.rigidBodies();
    const Index positions = 3 * world.particleCount();
    const Index momenta = world.configurationDimension() + 3 * world.particleCount();
    double along = 0.0, squared = 0.0;
    for (Index k = 0; k < bodies.count(); ++k) {
        if (bodies.isFixed(k)) continue;
        const Vec3 x0 = start.segment<3>(positions + 7 * k);
        const Vec3 v0 = start.segment<3>(momenta + 6 * k) / bodies.mass(k);
        const Vec3 dv = bodies.velocity(k) - v0;
        along += (bodies.position(k) - x0 - h * v0).dot(dv);
        squared += dv.squaredNorm();
    }
    if (!(squared > 0.0) || h <= 0.0) return 0.5;
    return std::clamp(along / (h * squared), 0.0, 1.0);
}

void ContactSolver::reset() {
    warm_.clear();
    previousH_ = 0.0;
}

void ContactSolver::buildAxis(const InverseMass& W, const Row& row, const Vec3& direction, const Vec3& ra,
                              const Vec3& rb, Axis& axis) const {
    // The relative velocity along d at the point, d . (vb + wb x rb - va - wa x ra), is
    // J u with J = [-d, -(ra x d) | d, rb x d] (Baraff, notes II, appendix D: the terms
    // n . (I^-1 (r x n)) x r of the denominator are (r x n) . I^-1 (r x n) = J W J^T).
    axis.direction = direction;
    axis.angularA = -ra.cross(direction);
    axis.angularB = rb.cross(direction);
    axis.wAngularA = row.angularA < 0 ? Vec3::Zero() : W.apply(row.angularA, axis.angularA);
    axis.wAngularB = row.angularB < 0 ? Vec3::Zero() : W.apply(row.angularB, axis.angularB);
    const double k = direction.dot((row.wLinearA + row.wLinearB).cwiseProduct(direction)) +
                     axis.angularA.dot(axis.wAngularA) + axis.angularB.dot(axis.wAngularB);
    axis.effectiveMass = k > 0.0 ? 1.0 / k : 0.0;
}

void ContactSolver::buildRows(const World& world, const std::vector<ContactManifold>& manifolds) {
    rows_.clear();
    manifoldStart_.clear();
    const InverseMass& W = world.inverseMass();  // built anew by each call: once per step
    const int tangents = world.planar() ? 1 : 2;
    for (const ContactManifold& m : manifolds) {
        manifoldStart_.push_back(rows_.size());
        const ContactMaterial material = manifoldMaterial(world, m);
        std::array<Vec3, 3> directions{m.normal, Vec3::Zero(), Vec3::Zero()};
        contactTangents(world, m.normal, directions[1], directions[2]);
        // What every point of the manifold shares: its blocks, a's frame (for the warm
        // starts' places on a), W's diagonal on the linear blocks.
        Index linearA, angularA, linearB, angularB;
        Vec3 arm;
        colliderBlocks(world, m.a, Vec3::Zero(), linearA, angularA, arm);
        colliderBlocks(world, m.b, Vec3::Zero(), linearB, angularB, arm);
        const bool rigidA = m.a.kind == ColliderKind::Rigid;
        const Mat3 toA = rigidA ? Mat3(world.rigidBodies().rotation(m.a.index).transpose()) : Mat3::Identity();
        const Vec3 originA = rigidA ? world.rigidBodies().position(m.a.index) : world.position(m.a.index);
        const Vec3 wLinearA = linearA < 0 ? Vec3::Zero() : Vec3(block3(W.diagonal, linearA));
        const Vec3 wLinearB = linearB < 0 ? Vec3::Zero() : Vec3(block3(W.diagonal, linearB));
        // The filter holds particles on planes and fixed bodies only, never on each other.
        const bool particleOnSurface = m.a.kind == ColliderKind::Particle && m.b.kind != ColliderKind::Particle;
        const double heldImpulse = particleOnSurface ? world.heldImpulse(m.a.index, -m.normal) : 0.0;
        for (int i = 0; i < m.count; ++i) {
            const ContactPoint& p = m.points[static_cast<std::size_t>(i)];
            Row& row = rows_.emplace_back();
            row.key = {m.a, m.b, p.feature};
            row.onA = toA * (p.position - originA);
            Vec3 ra, rb;
            colliderBlocks(world, m.a, p.position, row.linearA, row.angularA, ra);
            colliderBlocks(world, m.b, p.position, row.linearB, row.angularB, rb);
            row.tangents = tangents;
            row.wLinearA = wLinearA;
            row.wLinearB = wLinearB;
            buildAxis(W, row, directions[0], ra, rb, row.normal);
            buildAxis(W, row, directions[1], ra, rb, row.tangent1);
            if (tangents == 2) buildAxis(W, row, directions[2], ra, rb, row.tangent2);
            else row.tangent2 = zeroAxis();
            row.coupling1 = coupling(row, row.tangent1, row.normal);
            row.coupling2 = coupling(row, row.tangent2, row.normal);
            // A side without a block (a plane, a particle's rotation) reads and writes the
            // spare zero block past the world's, with W J^T = 0 there: no branches per row.
            for (Index* block : {&row.linearA, &row.angularA, &row.linearB, &row.angularB})
                if (*block < 0) *block = world.velocityBlocks();
            row.separation = p.separation;
            row.friction = material.friction;
            row.restitution = material.restitution;
            row.heldImpulse = heldImpulse;
        }
    }
    manifoldStart_.push_back(rows_.size());
}

ContactSolver::Axis ContactSolver::zeroAxis() {
    Axis axis;
    for (Vec3* part : {&axis.direction, &axis.angularA, &axis.angularB, &axis.wAngularA, &axis.wAngularB})
        part->setZero();
    return axis;
}

double ContactSolver::coupling(const Row& row, const Axis& along, const Axis& pushed) {
    return along.direction.dot((row.wLinearA + row.wLinearB).cwiseProduct(pushed.direction)) +
           along.angularA.dot(pushed.wAngularA) + along.angularB.dot(pushed.wAngularB);
}

double ContactSolver::velocityAlong(const Axis& axis, const Row& row, const VecX& u) const {
    return axis.direction.dot(block3(u, row.linearB) - block3(u, row.linearA)) +
           axis.angularA.dot(block3(u, row.angularA)) + axis.angularB.dot(block3(u, row.angularB));
}

void ContactSolver::applyImpulse(const Axis& axis, const Row& row, double impulse, VecX& target) const {
    const Vec3 linear = impulse * axis.direction;
    block3(target, row.linearA) -= row.wLinearA.cwiseProduct(linear);
    block3(target, row.angularA) += impulse * axis.wAngularA;
    block3(target, row.linearB) += row.wLinearB.cwiseProduct(linear);
    block3(target, row.angularB) += impulse * axis.wAngularB;
}

void ContactSolver::applyImpulses(const Row& row, const Vec3& p, VecX& target) const {
    // The three axes' W J^T p into each of the row's four blocks, each read and written once,
    // written out (Eigen's 3-vector expressions on a segment of a dynamic vector cost several
    // times the products); each block's change is computed before the write. The linear
    // blocks take W's diagonal times the impulse's direction, -on a and +on b.
    const double pn = p.x(), p1 = p.y(), p2 = p.z();
    const Vec3 &n = row.normal.direction, &t1 = row.tangent1.direction, &t2 = row.tangent2.direction;
    const double d0 = pn * n.x() + p1 * t1.x() + p2 * t2.x();
    const double d1 = pn * n.y() + p1 * t1.y() + p2 * t2.y();
    const double d2 = pn * n.z() + p1 * t1.z() + p2 * t2.z();
    double* x = target.data();
    const auto addLinear = [&](Index block, const Vec3& w) {
        double* y = x + 3 * block;
        const double c0 = w.x() * d0, c1 = w.y() * d1, c2 = w.z() * d2;
        y[0] += c0;
        y[1] += c1;
        y[2] += c2;
    };
    const auto addAngular = [&](Index block, const Vec3& normal, const Vec3& tangent1, const Vec3& tangent2) {
        const double c0 = pn * normal.x() + p1 * tangent1.x() + p2 * tangent2.x();
        const double c1 = pn * normal.y() + p1 * tangent1.y() + p2 * tangent2.y();
        const double c2 = pn * normal.z() + p1 * tangent1.z() + p2 * tangent2.z();
        double* y = x + 3 * block;
        y[0] += c0;
        y[1] += c1;
        y[2] += c2;
    };
    addLinear(row.linearA, -row.wLinearA);
    addAngular(row.angularA, row.normal.wAngularA, row.tangent1.wAngularA, row.tangent2.wAngularA);
    addLinear(row.linearB, row.wLinearB);
    addAngular(row.angularB, row.normal.wAngularB, row.tangent1.wAngularB, row.tangent2.wAngularB);
}

double ContactSolver::separationNow(const Row& row) const {
    // ds = n . (dxb + dthb x rb - dxa - dtha x ra): the normal Jacobian on the displacement.
    return row.separation + velocityAlong(row.normal, row, displacement_);
}

void ContactSolver::measureStep(const World& world, const ContactStep& step) {
    positionResponse_ = 0.5;
    if (step.start == nullptr) return;
    positionResponse_ = positionResponse(world, *step.start, step.h);
    // The velocities at the step's start per velocity block (the angular ones with the
    // inertia at the end: an O(h) error in a term of O(h)), for the free acceleration of
    // each point along its normal.
    const VecX& start = *step.start;
    const RigidBodies& bodies = world.rigidBodies();
    const Index velocities = world.configurationDimension();
    uStart_.setZero(u_.size());
    uStart_.head(3 * world.particleCount()) = start.segment(velocities, 3 * world.particleCount());
    for (Index k = 0; k < bodies.count(); ++k) {
        if (bodies.isFixed(k)) continue;
        const Index at = velocities + 3 * world.particleCount() + 6 * k;
        block3(uStart_, world.rigidBlock(k)) = bodies.planarLinear(start.segment<3>(at)) / bodies.mass(k);
        block3(uStart_, world.rigidBlock(k) + 1) = bodies.inverseInertiaWorld(k) * start.segment<3>(at + 3);
    }
    for (Row& row : rows_)
        row.normalAcceleration = (velocityAlong(row.normal, row) - velocityAlong(row.normal, row, uStart_)) / step.h;
}

int ContactSolver::collide(double threshold, double h) {
    // Baraff, notes II, section 8 and appendix D: j = -(1 + e) vrel / (J W J^T); a point
    // collides when it approaches faster than gravity alone makes a resting contact approach
    // in a step, and it touches or closes its gap before the next step ends. The bodies move
    // by tau W J^T j, tau the time since impact (< 0: an impact to come within the next
    // step), so that they end where they would have bounced to.
    // The first impulse of a point reflects its velocity at the impact, not at the step's
    // end (gravity went on pulling it in for tau), and the velocity its positions moved
    // with: w = vrel + (c - 1/2) a h (ContactStep), which is vrel for rk4 but differs by
    // g h / 2 for the Euler methods. Then the bounce of a ball is exact whatever the step:
    // its positions, a parabola before the impact, are one after it.
    // One manifold at a time, pass after pass until no point collides, so that a Newton's
    // cradle passes its momentum ball to ball; the points of one manifold together (each
    // reaching at least its own rebound velocity, by Gauss-Seidel on their impulses), so
    // that a box landing flat bounces flat instead of spinning off the corner taken first.
    int passes = 0;
    while (passes < kMaxCollisionPasses) {
        ++passes;
        bool any = false;
        for (std::size_t g = 0; g + 1 < manifoldStart_.size(); ++g) {
            const std::size_t begin = manifoldStart_[g], end = manifoldStart_[g + 1];
            bool colliding = false;
            for (std::size_t i = begin; i < end; ++i) {
                Row& row = rows_[i];
                row.colliding = false;
                row.collisionImpulse = 0.0;
                if (row.normal.effectiveMass == 0.0) continue;
                const double vn = velocityAlong(row.normal, row);
                if (vn >= -threshold) continue;
                double impactVelocity = vn;
                if (!row.collided) {
                    const double s = separationNow(row), a = row.normalAcceleration;
                    const double w = vn + (positionResponse_ - 0.5) * a * h;
                    if (w >= 0.0) continue;
                    // s - w tau + a tau^2 / 2 = 0, the root nearest 0 (s / w without acceleration).
                    const double discriminant = w * w - 2.0 * a * s;
                    const double tau = discriminant >= 0.0 ? 2.0 * s / (w - std::sqrt(discriminant)) : s / w;
                    if (tau < -h) continue;  // the gap stays open through the next step
                    impactVelocity = w - a * std::min(tau, h);
                    if (impactVelocity >= 0.0) continue;
                    row.impactTime = std::min(tau, h);
                    row.collided = true;
                }
                row.collisionTarget = vn - (1.0 + row.restitution) * impactVelocity;
                row.colliding = colliding = true;
            }
            if (!colliding) continue;
            any = true;
            for (int iteration = 0; iteration < kManifoldCollisionIterations; ++iteration) {
                double largestChange = 0.0, largestImpulse = 0.0;
                for (std::size_t i = begin; i < end; ++i) {
                    Row& row = rows_[i];
                    if (!row.colliding) continue;
                    const double vn = velocityAlong(row.normal, row);
                    const double change =
                        std::max(-row.collisionImpulse, (row.collisionTarget - vn) * row.normal.effectiveMass);
                    row.collisionImpulse += change;
                    applyImpulse(row.normal, row, change, u_);
                    applyImpulse(row.normal, row, row.impactTime * change, displacement_);
                    largestChange = std::max(largestChange, std::abs(change));
                    largestImpulse = std::max(largestImpulse, row.collisionImpulse);
                }
                if (largestChange <= kRelativeTolerance * largestImpulse) break;
            }
        }
        if (!any) break;
    }
    return passes;
}

const ContactSolver::Warm* ContactSolver::findWarm(const Row& row, const Warm* first, const Warm* last) {
    const Warm* nearest = nullptr;
    double nearestDistance = kWarmMatchDistance;
    for (const Warm* w = first; w != last; ++w) {
        if (w->key.feature == row.key.feature) return w;
        const double distance = (w->onA - row.onA).norm();
        if (distance <= nearestDistance) {
            nearest = w;
            nearestDistance = distance;
        }
    }
    return nearest;
}

namespace {

// |(p_t1, p_t2)|, as the sweeps take it (std::hypot guards against an overflow that
// impulses never reach, at ten times the cost).
template <typename Row>
double tangentSize(const Row& row) {
    return std::sqrt(row.tangentImpulse1 * row.tangentImpulse1 + row.tangentImpulse2 * row.tangentImpulse2);
}

// The inverse of a velocity block's W where W is not 0, and which of its dofs W moves:
// the rest (a planar body's rotations out of the plane, its motion across it) are held.
void blockMass(const InverseMass& W, Index b, Mat3& mass, Vec3& mask) {
    const std::int32_t k = W.full[static_cast<std::size_t>(b)];
    const Mat3 w = k < 0 ? Mat3(block3(W.diagonal, b).asDiagonal()) : W.fullBlocks[static_cast<std::size_t>(k)];
    mass.setZero();
    mask.setZero();
    if (w.isDiagonal(0.0)) {
        for (int i = 0; i < 3; ++i)
            if (w(i, i) > 0.0) {
                mass(i, i) = 1.0 / w(i, i);
                mask[i] = 1.0;
            }
        return;
    }
    mass = w.inverse();
    mask.setOnes();
}

}  // namespace

template <int B>
bool ContactSolver::factorActiveSet(BlockCholesky<B>& factor, std::vector<typename BlockCholesky<B>::Block>& values,
                                    Index dofs) {
    // activeBlocks_ holds 3 x 3 pieces at their first dofs, below the diagonal or on it; a
    // piece goes into the B x B block of its rows' and columns' unknowns. The factor's
    // ordering and pattern are kept while the pattern is (a settled pile's), and where each
    // piece goes while the pieces come in the same order.
    const Index blocks = dofs / B;
    activeSequence_.clear();
    for (const ActiveBlock& piece : activeBlocks_) activeSequence_.emplace_back(piece.row, piece.column);
    if (factor.blocks() != blocks || slottedBlockSize_ != B || activeSequence_ != slottedSequence_) {
        activePattern_.clear();
        for (const auto& [row, column] : activeSequence_)
            if (row / B != column / B) activePattern_.emplace_back(row / B, column / B);
        std::sort(activePattern_.begin(), activePattern_.end());
        activePattern_.erase(std::unique(activePattern_.begin(), activePattern_.end()), activePattern_.end());
        if (factor.blocks() != blocks || analysedBlockSize_ != B || activePattern_ != analysedPattern_) {
            analysedPattern_ = activePattern_;
            analysedBlockSize_ = B;
            factor.analyze(blocks, activePattern_);
        }
        activeSlots_.clear();
        for (const auto& [row, column] : activeSequence_) activeSlots_.push_back(factor.slot(row / B, column / B));
        slottedSequence_ = activeSequence_;
        slottedBlockSize_ = B;
    }
    values.assign(static_cast<std::size_t>(factor.slots()), BlockCholesky<B>::Block::Zero());
    for (std::size_t k = 0; k < activeBlocks_.size(); ++k) {
        const ActiveBlock& piece = activeBlocks_[k];
        values[static_cast<std::size_t>(activeSlots_[k])].template block<3, 3>(piece.row % B, piece.column % B) +=
            piece.value;
    }
    return factor.factorize(values);
}

bool ContactSolver::minimizeOnActiveSet(const InverseMass& W) {
    // Subspace minimization (Morales, Nocedal and Smelyanskiy, "An algorithm for the fast
    // solution of symmetric linear complementarity problems", Numerische Mathematik 111,
    // 2008): the sweeps so far say which points push (pn > 0) and which of those stick
    // (inside the friction disk); on that active set the LCP is the linear system
    // J_S (u + W J_S^T dp) = target_S, which Gauss-Seidel solves slowly on a pile (the
    // weights travel one contact per sweep) and a factorization solves at once. J_S W J_S^T
    // is singular wherever a support is indeterminate (four corners on a face), so each row
    // is regularized by a small E and the system solved in velocity space, where it has the
    // size of the bodies' dofs rather than of the rows:
    //   (M + J_S^T E^-1 J_S) du = J_S^T E^-1 r,   dp = E^-1 (r - J_S du),   r = target - J_S u.
    // E leaves a bias of about 1e-6 of the residual it removes where the system is well
    // determined, more where it nearly is not: the solve is repeated with the same factor
    // (iterated Tikhonov) until the residual has shrunk by kSubspaceReduction, once in a
    // settled pile, two or three times in a pile settling. In the indeterminate part E holds
    // the change small, so that the part keeps the split the warm start gave it. The sliding
    // points'
    // tangent impulses and the others' zeros stay as they are; whatever the solution puts
    // outside the cone (a point that should let go) is projected back for the sweeps to go
    // on. Only points that touch take part (a speculative point's gap makes its target
    // -s / h, which four points on one face cannot all meet), and the step is not kept
    // when it leaves the system unsolved or many points outside the cone: the sweeps had
    // not yet found the active set. Returns whether it was kept.
    const Index spare = W.blocks();
    activeAxes_.clear();
    activeDof_.assign(static_cast<std::size_t>(spare) + 1, -1);
    activeDofMask_.resize(static_cast<std::size_t>(spare) + 1);
    activeBlocks_.clear();
    activeVelocityBlocks_.clear();
    for (Row& row : rows_) {
        if (row.normal.effectiveMass == 0.0 || row.normalImpulse <= 0.0 || row.targetVelocity != 0.0) continue;
        activeAxes_.push_back({&row, 0, row.normal.effectiveMass / kSubspaceRegularization});
        const double limit = row.friction * (row.normalImpulse + row.heldImpulse);
        const double tangent = tangentSize(row);
        if (limit > 0.0 && tangent < (1.0 - 1e-9) * limit) {
            activeAxes_.push_back({&row, 1, row.tangent1.effectiveMass / kSubspaceRegularization});
            if (row.tangents == 2)
                activeAxes_.push_back({&row, 2, row.tangent2.effectiveMass / kSubspaceRegularization});
        }
    }
    // The unknowns: a body's two velocity blocks together as one 6 x 6 block of the
    // factorization when only bodies take part (a third of the work of 3 x 3 blocks),
    // each velocity block alone when a particle does.
    const auto particleSide = [&](Index linear, Index angular) { return linear != spare && angular == spare; };
    activeBlockSize_ = 6;
    for (const ActiveAxis& a : activeAxes_)
        if (particleSide(a.row->linearA, a.row->angularA) || particleSide(a.row->linearB, a.row->angularB))
            activeBlockSize_ = 3;
    Index dofs = 0;
    const auto assign = [&](Index b) {
        Mat3 mass;
        Vec3& mask = activeDofMask_[static_cast<std::size_t>(b)];
        blockMass(W, b, mass, mask);
        for (int i = 0; i < 3; ++i)
            if (mask[i] == 0.0) mass(i, i) = 1.0;
        activeDof_[static_cast<std::size_t>(b)] = dofs;
        activeVelocityBlocks_.push_back(b);
        activeBlocks_.push_back({dofs, dofs, mass});
        dofs += 3;
    };
    for (const ActiveAxis& a : activeAxes_) {
        const Row& row = *a.row;
        for (const auto& [linear, angular] :
             {std::pair(row.linearA, row.angularA), std::pair(row.linearB, row.angularB)})
            for (const Index b : {linear, angular}) {
                if (b == spare || activeDof_[static_cast<std::size_t>(b)] >= 0) continue;
                if (W.apply(b, Vec3::Ones()).isZero() &&
                    (activeBlockSize_ == 3 || W.apply(b == linear ? angular : linear, Vec3::Ones()).isZero()))
                    continue;  // a fixed body's blocks: it does not move
                if (activeBlockSize_ == 3) {
                    assign(b);
                } else {  // the body's linear block, then its angular one
                    assign(linear);
                    assign(angular);
                }
            }
    }
    if (activeAxes_.empty() || dofs == 0) return false;
    const auto axisOf = [](const ActiveAxis& a) -> const Axis& {
        return a.axis == 0 ? a.row->normal : a.axis == 1 ? a.row->tangent1 : a.row->tangent2;
    };
    const auto impulseOf = [](const ActiveAxis& a) -> double& {
        return a.axis == 0 ? a.row->normalImpulse : a.axis == 1 ? a.row->tangentImpulse1 : a.row->tangentImpulse2;
    };
    // The row's Jacobian on each of its four blocks, without the dofs that W holds.
    const auto jacobian = [&](const ActiveAxis& a, std::array<Vec3, 4>& j, std::array<Index, 4>& at) {
        const Axis& axis = axisOf(a);
        const Row& row = *a.row;
        const std::array<Index, 4> blocks{row.linearA, row.angularA, row.linearB, row.angularB};
        const std::array<Vec3, 4> parts{-axis.direction, axis.angularA, axis.direction, axis.angularB};
        for (std::size_t i = 0; i < 4; ++i) {
            at[i] = activeDof_[static_cast<std::size_t>(blocks[i])];
            j[i] = at[i] < 0 ? Vec3::Zero()
                             : Vec3(parts[i].cwiseProduct(activeDofMask_[static_cast<std::size_t>(blocks[i])]));
        }
    };
    // J_S^T E^-1 J_S: the rows of a manifold share their four blocks, so their outer
    // products are summed into one 12 x 12 matrix before they become blocks.
    std::array<Vec3, 4> j;
    std::array<Index, 4> at, groupAt{-1, -1, -1, -1};
    Eigen::Matrix<double, 12, 12> group = Eigen::Matrix<double, 12, 12>::Zero();
    const auto flush = [&] {
        for (std::size_t p = 0; p < 4; ++p)
            for (std::size_t q = 0; q <= p; ++q)
                if (groupAt[p] >= 0 && groupAt[q] >= 0) {
                    // Block (p, q) of the group, or its transpose, in the lower triangle.
                    const bool below = groupAt[p] >= groupAt[q];
                    const Mat3 block =
                        group.block<3, 3>(3 * static_cast<Index>(below ? p : q), 3 * static_cast<Index>(below ? q : p));
                    activeBlocks_.push_back(
                        {std::max(groupAt[p], groupAt[q]), std::min(groupAt[p], groupAt[q]), block});
                }
        group.setZero();
    };
    activeJacobians_.resize(activeAxes_.size());
    for (std::size_t i = 0; i < activeAxes_.size(); ++i) {
        const ActiveAxis& a = activeAxes_[i];
        jacobian(a, j, at);
        activeJacobians_[i] = {at, j};
        if (at != groupAt) {
            flush();
            groupAt = at;
        }
        Eigen::Matrix<double, 12, 1> row;
        row << j[0], j[1], j[2], j[3];
        group.noalias() += a.weight * row * row.transpose();
    }
    flush();
    if (!(activeBlockSize_ == 6 ? factorActiveSet(factor6_, values6_, dofs)
                                : factorActiveSet(factor3_, values3_, dofs)))
        return false;
    // Kept to go back to, should the step not solve the system (a degenerate factor).
    savedU_ = u_;
    savedImpulses_.clear();
    for (const ActiveAxis& a : activeAxes_) savedImpulses_.push_back(impulseOf(a));
    const auto restore = [&] {
        u_ = savedU_;
        for (std::size_t i = 0; i < activeAxes_.size(); ++i) impulseOf(activeAxes_[i]) = savedImpulses_[i];
        return false;
    };
    // The residuals, r = target - J_S u (the active points touch: their targets are 0). The
    // solve is repeated with the same factor while the largest has not shrunk enough; each
    // moves u by du (= W J_S^T dp: M du = J_S^T E^-1 (r - J_S du) = J_S^T dp), after which
    // the residuals are r - J_S du = E dp.
    activeResidual_.resize(activeAxes_.size());
    double initialResidual = 0.0;
    for (std::size_t i = 0; i < activeAxes_.size(); ++i) {
        activeResidual_[i] = -velocityAlong(axisOf(activeAxes_[i]), *activeAxes_[i].row);
        initialResidual = std::max(initialResidual, std::abs(activeResidual_[i]));
    }
    double finalResidual = initialResidual;
    for (int solve = 0; solve < kMaxSubspaceRefinements && !(finalResidual <= kSubspaceReduction * initialResidual);
         ++solve) {
        activeRhs_.setZero(dofs);
        for (std::size_t i = 0; i < activeAxes_.size(); ++i) {
            const ActiveJacobian& jacobianOf = activeJacobians_[i];
            const double weighted = activeAxes_[i].weight * activeResidual_[i];
            for (std::size_t p = 0; p < 4; ++p)
                if (jacobianOf.at[p] >= 0) activeRhs_.segment<3>(jacobianOf.at[p]) += weighted * jacobianOf.j[p];
        }
        activeSolution_ = activeRhs_;
        if (activeBlockSize_ == 6) factor6_.solve(activeSolution_);
        else factor3_.solve(activeSolution_);
        finalResidual = 0.0;
        for (std::size_t i = 0; i < activeAxes_.size(); ++i) {
            const ActiveJacobian& jacobianOf = activeJacobians_[i];
            double r = activeResidual_[i];
            for (std::size_t p = 0; p < 4; ++p)
                if (jacobianOf.at[p] >= 0) r -= jacobianOf.j[p].dot(activeSolution_.segment<3>(jacobianOf.at[p]));
            const double dp = activeAxes_[i].weight * r;
            impulseOf(activeAxes_[i]) += dp;
            activeResidual_[i] = r;  // E dp
            finalResidual = std::max(finalResidual, std::abs(r));
        }
        for (const Index b : activeVelocityBlocks_)
            block3(u_, b) += activeSolution_.segment<3>(activeDof_[static_cast<std::size_t>(b)]);
    }
    if (!(finalResidual <= kSubspaceReduction * initialResidual + 1e-12)) return restore();
    // Back into the cone: a point pulling, or a stuck one past its friction limit. When
    // many are (the sweeps had not yet found which points push, as in a pile just built),
    // the step is not kept: the sweeps go on from where they were.
    std::size_t outside = 0;
    for (const ActiveAxis& a : activeAxes_) {
        const Row& row = *a.row;
        const double limit = row.friction * (row.normalImpulse + row.heldImpulse);
        if (a.axis == 0 && (row.normalImpulse < 0.0 || tangentSize(row) > limit)) ++outside;
    }
    if (outside > kSubspaceOutside * activeAxes_.size()) return restore();
    for (const ActiveAxis& a : activeAxes_) {
        if (a.axis != 0) continue;
        Row& row = *a.row;
        if (row.normalImpulse < 0.0) {
            applyImpulse(row.normal, row, -row.normalImpulse, u_);
            row.normalImpulse = 0.0;
        }
        const double limit = row.friction * (row.normalImpulse + row.heldImpulse);
        const double size = tangentSize(row);
        if (size > limit) {
            const double keep = size > 0.0 ? limit / size : 0.0;
            applyImpulse(row.tangent1, row, (keep - 1.0) * row.tangentImpulse1, u_);
            if (row.tangents == 2) applyImpulse(row.tangent2, row, (keep - 1.0) * row.tangentImpulse2, u_);
            row.tangentImpulse1 *= keep;
            row.tangentImpulse2 *= keep;
        }
    }
    return true;
}

Vec3 ContactSolver::sweepRow(Row& row) {
    // One point's Gauss-Seidel step: the normal impulse, clamped at 0, then both tangent
    // impulses from the velocities it left, projected onto the friction disk. Its four
    // velocity blocks are read once and written once: the tangents' velocities after the
    // normal change follow from the couplings J_t W J_n^T, and the three impulse changes
    // go into u together.
    const auto linearA = block3(u_, row.linearA), angularA = block3(u_, row.angularA),
               linearB = block3(u_, row.linearB), angularB = block3(u_, row.angularB);
    const Vec3 linear = linearB - linearA;
    const auto along = [&](const Axis& axis) {
        return axis.direction.dot(linear) + axis.angularA.dot(angularA) + axis.angularB.dot(angularB);
    };
    const double vn = along(row.normal), v1 = along(row.tangent1), v2 = along(row.tangent2);
    const double pn = std::max(0.0, row.normalImpulse + (row.targetVelocity - vn) * row.normal.effectiveMass);
    const double dn = pn - row.normalImpulse;
    double p1 = row.tangentImpulse1 - (v1 + dn * row.coupling1) * row.tangent1.effectiveMass;
    double p2 = row.tangentImpulse2 - (v2 + dn * row.coupling2) * row.tangent2.effectiveMass;
    const double limit = row.friction * (pn + row.heldImpulse), size = std::sqrt(p1 * p1 + p2 * p2);
    if (size > limit) {
        p1 *= limit / size;
        p2 *= limit / size;
    }
    applyImpulses(row, Vec3(dn, p1 - row.tangentImpulse1, p2 - row.tangentImpulse2), u_);
    row.normalImpulse = pn;
    row.tangentImpulse1 = p1;
    row.tangentImpulse2 = p2;
    return {pn, p1, p2};
}

int ContactSolver::solveResting(const InverseMass& W, double h, double hPrevious) {
    // Warm start: last step's impulses of the same (pair, feature), scaled to this step.
    const double scale = hPrevious > 0.0 ? h / hPrevious : 0.0;
    // The previous points of a manifold's pair are contiguous in warm_, which is sorted by
    // pair: found once per manifold.
    std::size_t cold = 0;
    const auto byPair = [](const Warm& x, const Warm& y) {
        return std::tie(x.key.a, x.key.b) < std::tie(y.key.a, y.key.b);
    };
    for (std::size_t g = 0; g + 1 < manifoldStart_.size(); ++g) {
        const std::size_t begin = manifoldStart_[g], end = manifoldStart_[g + 1];
        const auto [first, last] = std::equal_range(warm_.begin(), warm_.end(),
                                                    Warm{rows_[begin].key, Vec3::Zero(), 0.0, Vec3::Zero()}, byPair);
        for (std::size_t i = begin; i < end; ++i) {
            Row& row = rows_[i];
            const Warm* found = row.collided ? nullptr
                                             : findWarm(row, warm_.data() + (first - warm_.begin()),
                                                        warm_.data() + (last - warm_.begin()));
            if (found == nullptr) {
                ++cold;
                continue;
            }
            row.normalImpulse = scale * found->normal;
            row.tangentImpulse1 = scale * found->tangent.dot(row.tangent1.direction);
            row.tangentImpulse2 = scale * found->tangent.dot(row.tangent2.direction);
            applyImpulses(row, Vec3(row.normalImpulse, row.tangentImpulse1, row.tangentImpulse2), u_);
        }
    }
    // Baraff's LCP over the step (notes II, section 9 and appendix D), a = A f + b with
    // A = J W J^T and b = vrel / h, in impulses p = h f: vrel + (A p)_i >= 0, p >= 0,
    // complementary. A gap s > kTouching (a speculative point) may close within the step,
    // no more: vrel >= -s / h. Projected Gauss-Seidel: each point's impulse in turn, clamped.
    // Coulomb friction per point: tangent impulses that stop the sliding, projected onto
    // the disk |pt| <= mu pn, the exact friction cone (two tangents in 3D, one in a plane);
    // pn with the impulse a particle's contact filter already gave it (Row::heldImpulse).
    int sweeps = 0;
    for (Row& row : rows_) {
        const double s = separationNow(row);
        row.targetVelocity = s > kTouching ? -s / h : 0.0;
    }
    // Each iteration is a symmetric Gauss-Seidel pass, forwards then backwards, so that the
    // order of the points biases no side (a symmetric stack stays symmetric), accelerated as
    // the nonsmooth nonlinear conjugate gradient method does it (Silcowski, Jonsson and
    // Lacoursiere, "Nonsmooth nonlinear conjugate gradient method for interactive contact
    // force problems", The Visual Computer 26, 2010): the pass's change r is added to a
    // direction p <- r + beta p, beta = |r|^2 / |r_previous|^2, and the impulses move on by
    // beta p, restarting (beta = 0) whenever |r| grows. The next pass projects whatever
    // that step puts outside the cone. On a pile, whose weights travel one contact per
    // pass, it needs several times fewer passes than Gauss-Seidel alone.
    double previousResidual = 0.0;
    for (Row& row : rows_) row.direction.setZero();
    // A solve that starts from last step's impulses is close to its answer from the first
    // sweep; one that starts from nothing (a pile just built, many new points) needs the
    // weights carried down the whole pile, pass after pass.
    const int maxSweeps = cold > rows_.size() / 10 ? kMaxIterations : kMaxWarmIterations;
    int subspaceSolves = 0, nextSubspace = kSweepsBeforeSubspace;
    while (sweeps < maxSweeps) {
        for (Row& row : rows_) row.iterationStart = Vec3(row.normalImpulse, row.tangentImpulse1, row.tangentImpulse2);
        double largestChange = 0.0, largestImpulse = 0.0;
        // A forward pass that changes nothing beyond the tolerance ends the solve: the
        // backward pass would not either (it balances the order of changes still to come).
        bool converged = false;
        for (int pass = 0; pass < 2 && !converged; ++pass) {
            ++sweeps;
            largestChange = largestImpulse = 0.0;
            const bool backwards = pass == 1;
            for (std::size_t i = 0; i < rows_.size(); ++i) {
                Row& row = rows_[backwards ? rows_.size() - 1 - i : i];
                if (row.normal.effectiveMass == 0.0) continue;
                const Vec3 before(row.normalImpulse, row.tangentImpulse1, row.tangentImpulse2);
                const Vec3 after = sweepRow(row);
                largestChange = std::max(largestChange, (after - before).cwiseAbs().maxCoeff());
                largestImpulse = std::max(largestImpulse, after.cwiseAbs().maxCoeff());
            }
            converged = largestChange <= kRelativeTolerance * largestImpulse;
        }
        if (converged) break;
        if (sweeps >= nextSubspace && subspaceSolves < kMaxSubspaceSolves) {
            ++subspaceSolves;
            nextSubspace = sweeps + kSweepsBeforeSubspace;
            if (minimizeOnActiveSet(W)) {
                previousResidual = 0.0;  // the conjugate directions start again
                for (Row& row : rows_) row.direction.setZero();
                continue;
            }
            subspaceSolves = kMaxSubspaceSolves;  // the sweeps have not found the active set: no more tries
        }
        double residual = 0.0;
        for (const Row& row : rows_)
            residual +=
                (Vec3(row.normalImpulse, row.tangentImpulse1, row.tangentImpulse2) - row.iterationStart).squaredNorm();
        const double beta = previousResidual > 0.0 && residual < previousResidual ? residual / previousResidual : 0.0;
        previousResidual = residual;
        for (Row& row : rows_) {
            const Vec3 change = Vec3(row.normalImpulse, row.tangentImpulse1, row.tangentImpulse2) - row.iterationStart;
            const Vec3 step = beta * row.direction;
            row.direction = change + step;
            if (beta == 0.0 || row.normal.effectiveMass == 0.0) continue;
            row.normalImpulse += step.x();
            row.tangentImpulse1 += step.y();
            row.tangentImpulse2 += step.z();
            applyImpulses(row, step, u_);
        }
    }
    nextWarm_.clear();
    for (const Row& row : rows_) {
        if (row.normalImpulse == 0.0 && row.tangentImpulse1 == 0.0 && row.tangentImpulse2 == 0.0) continue;
        nextWarm_.push_back(
            {row.key, row.onA, row.normalImpulse,
             row.tangentImpulse1 * row.tangent1.direction + row.tangentImpulse2 * row.tangent2.direction});
    }
    // In the manifolds' order, which the detector gives sorted by pair.
    if (!std::is_sorted(nextWarm_.begin(), nextWarm_.end(), byPair))
        std::stable_sort(nextWarm_.begin(), nextWarm_.end(), byPair);
    std::swap(warm_, nextWarm_);
    return sweeps;
}

void ContactSolver::projectPositions(double h) {
    // The resting impulses are forces over the step: a point that touched at the step's end
    // moves as far as the integrator would have moved it for them (ContactStep), so that a
    // box held by friction on a slope does not creep by the step's unopposed slide.
    for (const Row& row : rows_) {
        if (row.separation > 0.0 || row.collided) continue;
        const double c = positionResponse_ * h;
        applyImpulses(row, c * Vec3(row.normalImpulse, row.tangentImpulse1, row.tangentImpulse2), displacement_);
    }
    // Non-linear Gauss-Seidel on the positions alone (no velocity changes): overlaps deeper
    // than the slop are pushed out, the separations following the displacements linearly.
    // A point that touched at the step's end and does not now move apart by the slop in a
    // step is held at the slop from both sides: it stays in touch (the displacements for the
    // contact forces above may have lifted it, and a corner that carries no load in an
    // indeterminate support must not let its box rock); the others are only pushed. Points
    // that collided were already put where they bounced to, which leaves them apart unless
    // they were found deeper than a step's approach (the impact time is capped at the step):
    // then they are pushed out too, never held.
    for (Row& row : rows_)
        row.held = !row.collided && row.separation <= 0.0 && velocityAlong(row.normal, row) * h < kSlop;
    for (int iteration = 0; iteration < kPositionIterations; ++iteration) {
        double worst = 0.0;
        const bool backwards = iteration % 2 == 1;
        for (std::size_t i = 0; i < rows_.size(); ++i) {
            Row& row = rows_[backwards ? rows_.size() - 1 - i : i];
            if (row.normal.effectiveMass == 0.0) continue;
            // The separation now and its correction, with one read and one write of the
            // row's four displacement blocks.
            const Axis& n = row.normal;
            double* d = displacement_.data();
            Eigen::Map<Vec3> linearA(d + 3 * row.linearA), angularA(d + 3 * row.angularA), linearB(d + 3 * row.linearB),
                angularB(d + 3 * row.angularB);
            const double separation = row.separation + n.direction.dot(linearB - linearA) + n.angularA.dot(angularA) +
                                      n.angularB.dot(angularB);
            const double error = -kSlop - separation;
            if (!row.held && error <= 0.0 && row.positionImpulse == 0.0) continue;
            double step = error * n.effectiveMass;
            if (!row.held) step = std::max(step, -row.positionImpulse);
            row.positionImpulse += step;
            const Vec3 linear = step * n.direction;
            linearA -= row.wLinearA.cwiseProduct(linear);
            angularA += step * n.wAngularA;
            linearB += row.wLinearB.cwiseProduct(linear);
            angularB += step * n.wAngularB;
            worst = std::max(worst, row.held ? std::abs(error) : error);
        }
        if (worst <= 0.1 * kSlop) break;
    }
}

void ContactSolver::writeBack(World& world) {
    u0_ = u_ - u0_;
    u0_.conservativeResize(world.velocityDimension());
    world.changeVelocities(u0_);
    for (Index i = 0; i < world.particleCount(); ++i)
        if (!block3(displacement_, i).isZero(0.0)) world.setPosition(i, world.position(i) + block3(displacement_, i));
    RigidBodies& bodies = world.rigidBodies();
    for (Index k = 0; k < world.rigidBodyCount(); ++k) {
        const Index b = world.rigidBlock(k);
        bodies.displace(k, block3(displacement_, b), block3(displacement_, b + 1));
    }
}

void ContactSolver::solve(World& world, const std::vector<ContactManifold>& manifolds, const ContactStep& step,
                          ContactReport& report) {
    buildRows(world, manifolds);
    const double hPrevious = std::exchange(previousH_, step.h);
    if (rows_.empty()) {
        warm_.clear();
        return;
    }
    const Index dimension = world.velocityDimension();
    u_.setZero(dimension + 3);  // and the spare block (buildRows)
    u_.head(dimension) = world.generalizedVelocities();
    u0_ = u_;
    displacement_.setZero(u_.size());
    for (const Row& row : rows_) report.maxPenetration = std::max(report.maxPenetration, -row.separation);
    measureStep(world, step);
    const int passes = collide(2.0 * step.gravity * step.h, step.h);
    const int sweeps = solveResting(world.inverseMass(), step.h, hPrevious);
    projectPositions(step.h);
    writeBack(world);
    for (const Row& row : rows_)
        if (row.separation < 0.0 || row.collided || row.normalImpulse > 0.0) ++report.contacts;
    report.iterations += passes + sweeps;
}

}  // namespace tinkerbox
