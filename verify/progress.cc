#include "verify/progress.h"

namespace rosched::verify {

Progress::Progress(std::int64_t total_items, double total_work, std::FILE* out, bool terminal,
                   double plain_interval)
    : total_items_(total_items),
      total_work_(total_work),
      out_(out),
      terminal_(terminal),
      interval_(terminal ? 0.25 : plain_interval) {}

void Progress::add(double work) {
  std::lock_guard<std::mutex> lock(mu_);
  ++items_;
  work_ += work;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (elapsed - last_print_ >= interval_ && items_ < total_items_) {
    last_print_ = elapsed;
    print(items_, work_, elapsed);
  }
}

void Progress::print(std::int64_t items, double work, double elapsed) {
  const double rate = items / elapsed;
  const double eta = work > 0 ? elapsed * (total_work_ - work) / work : 0;
  std::fprintf(out_, "%s%lld/%lld p done (%.1f%% of the work), %.1f p/s, ETA %.0f s%s",
               terminal_ ? "\r" : "", static_cast<long long>(items),
               static_cast<long long>(total_items_), 100.0 * work / total_work_, rate, eta,
               terminal_ ? "\033[K" : "\n");
  std::fflush(out_);
  printed_ = true;
}

void Progress::finish() {
  std::lock_guard<std::mutex> lock(mu_);
  if (terminal_ && printed_) {
    std::fprintf(out_, "\r\033[K");
    std::fflush(out_);
  }
}

}  // namespace rosched::verify
