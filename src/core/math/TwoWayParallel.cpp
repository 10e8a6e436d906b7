#include "core/math/TwoWayParallel.h"

namespace tinkerbox {

namespace {
// About 100 us of polling before sleeping (a poll takes 0.5 to 0.7 ns on the 2-core test
// machine): longer than the stretches a step runs on one thread between two halves (the top
// of a projective substitution, a term's preparation), far shorter than the gap between two
// frames. At 20,000 polls (10 to 15 us) the helper fell asleep within projective steps and
// the next half waited for its wake-up or ran on the caller's thread.
constexpr int kSpins = 200000;

template <class Done>
void spinThenWait(const std::atomic<unsigned>& counter, unsigned seen, Done&& done) {
    for (int k = 0; k < kSpins; ++k)
        if (done()) return;
    while (!done()) counter.wait(seen, std::memory_order_acquire);
}
}  // namespace

TwoWayParallel::TwoWayParallel() : useHelper_(std::thread::hardware_concurrency() >= 2) {}

TwoWayParallel::~TwoWayParallel() {
    if (!helper_.joinable()) return;
    stop_.store(true, std::memory_order_release);
    posted_.fetch_add(1, std::memory_order_release);
    posted_.notify_one();
    helper_.join();
}

void TwoWayParallel::run(const std::function<void()>& first, const std::function<void()>& second) {
    if (!useHelper_) {
        first();
        second();
        return;
    }
    if (!helper_.joinable()) helper_ = std::thread([this] { work(); });  // on first use
    task_ = &second;
    const unsigned ticket = posted_.fetch_add(1, std::memory_order_release) + 1;
    posted_.notify_one();
    first();
    // Not yet taken (the helper has no core just now): do it here rather than wait.
    unsigned expected = ticket - 1;
    if (claimed_.compare_exchange_strong(expected, ticket, std::memory_order_acq_rel)) {
        second();
        return;
    }
    spinThenWait(done_, done_.load(std::memory_order_acquire),
                 [&] { return done_.load(std::memory_order_acquire) == ticket; });
}

void TwoWayParallel::forEach(std::int64_t count, const std::function<void(std::int64_t)>& task) {
    std::atomic<std::int64_t> next{0};
    const std::function<void()> take = [&] {
        for (std::int64_t k = next.fetch_add(1, std::memory_order_relaxed); k < count;
             k = next.fetch_add(1, std::memory_order_relaxed))
            task(k);
    };
    run(take, take);
}

void TwoWayParallel::work() {
    unsigned seen = 0;
    for (;;) {
        spinThenWait(posted_, seen, [&] { return posted_.load(std::memory_order_acquire) != seen; });
        seen = posted_.load(std::memory_order_acquire);
        if (stop_.load(std::memory_order_acquire)) return;
        // The caller posts a task only once the last one is finished, so the latest is the
        // only one open; whoever claims it first runs it.
        unsigned expected = seen - 1;
        if (!claimed_.compare_exchange_strong(expected, seen, std::memory_order_acq_rel)) continue;
        (*task_)();
        done_.store(seen, std::memory_order_release);
        done_.notify_one();
    }
}

}  // namespace tinkerbox
