#include "mpi_exec/nway_allreduce.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"

namespace rosched::mpi {
namespace {

// fan_share: the crowding above which one message from every rank already fills what the ranks
// share (SimGrid SMPI: 1 on 36 x 1, 5.8-6.0 on `flat` and `flat288`, 21 on 36 x 32).
constexpr double kCrowded = 1.5;

// Rosched_Set_nway's values (0 / -1: not set); atomic, as a thread may set them while another
// calls (each call reads each once).
std::atomic<int> ports_override{0};
std::atomic<int> rule_override{-1};

// Calls of the n-way allreduce on a communicator so far, kept in its CommCache: the same on
// every rank (collectives are called in the same order), so up to kNwayInFlight operations
// started on one communicator may be in flight at once, each with tags of its own.
unsigned next_sequence(const CommInfo& ci) {
  if (ci.cache == nullptr) throw Error(MPI_ERR_INTERN, "n-way allreduce without a communicator cache");
  return ci.cache->nway_calls++;
}

}  // namespace

double fan_share(const CostModel& model, double bytes, FanSenders senders) {
  if (senders == FanSenders::kEveryRank && model.crowding > kCrowded &&
      bytes > model.bytes[kEagerPoint]) {
    return 1;
  }
  return std::clamp(model.fanout - 1, 0.0, 1.0);
}

double fan_time(const CostModel& model, int n, double bytes, double spread, FanSenders senders) {
  const double one = model.time(bytes);
  const double as_many = (n - 1) * std::max(0.0, model.further(bytes) - model.per_message);
  // Messages below the eager limit on a model measured with its per-size figures: the n - 1
  // further messages at the rate measured for their own size, one after the other on the rank's
  // link.
  if (model.measured && model.burst[0] > 0 && bytes <= model.bytes[kEagerPoint]) {
    return one + as_many / spread + (n - 1) * model.per_message;
  }
  // Otherwise n - 1 more messages than one, and the bytes of n where they share the rank's path
  // (fanout 2), of one where each has its own (1), all of them where every rank's cross a
  // crowded network (fan_share): n m bytes as one message moves them, or as n - 1 further
  // messages of m do, whichever is dearer.
  const double shared = fan_share(model, bytes, senders);
  const double as_one = model.time(n * bytes) - one;
  return one + shared * std::max(as_one, as_many) / spread + (n - 1) * model.per_message;
}

double nway_time(const CostModel& model, int p, int n, double bytes) {
  // n vectors leave each rank per round, and n arrive.
  return rosched::ceil_log(p, n + 1) * fan_time(model, n, bytes, 1, FanSenders::kEveryRank);
}

int least_cost_ports(int p, const std::function<double(int)>& cost) {
  int best = 1;
  double best_cost = 0;
  for (int n = 1; n <= kNwayMaxPorts && n <= std::max(p - 1, 1); ++n) {
    const double c = cost(n);
    if (n == 1 || c < best_cost) best = n, best_cost = c;
  }
  return best;
}

int nway_ports_for(const CostModel& model, int p, double bytes) {
  return least_cost_ports(p, [&](int n) { return nway_time(model, p, n, bytes); });
}

double knomial_time(const CostModel& model, int p, int n, double bytes) {
  return rosched::ceil_log(p, n + 1) * fan_time(model, n, bytes, model.crowding);
}

int knomial_ports_for(const CostModel& model, int p, double bytes) {
  return least_cost_ports(p, [&](int n) { return knomial_time(model, p, n, bytes); });
}

double ideal_allreduce(const CostModel& model, int p, double bytes) {
  const double latency = model.time(8);
  return rosched::ceil_log2(p) * latency +
         2.0 * (p - 1) / p * std::max(0.0, model.time(bytes) - latency);
}

bool nway_can_pay(const CommInfo& ci, double bytes) {
  const CostModel& model = cost_model(ci);
  return nway_time(model, ci.p, nway_ports(ci, bytes), bytes) <=
         2 * ideal_allreduce(model, ci.p, bytes);
}

int forced_nway_ports() {
  const int ports = ports_override.load(std::memory_order_relaxed);
  return ports > 0 ? ports : settings().nway_n;
}

int nway_ports(const CommInfo& ci, double bytes) {
  if (const int forced = forced_nway_ports()) return forced;
  return nway_ports_for(cost_model(ci), ci.p, bytes);
}

NwayRule nway_rule() {
  const int rule = rule_override.load(std::memory_order_relaxed);
  if (rule >= 0) return static_cast<NwayRule>(rule);
  return settings().nway_rule;
}

std::shared_ptr<const NwayRounds> rounds_of(std::int64_t p, std::int64_t n, NwayRule rule,
                                            std::int64_t rank) {
  thread_local std::array<std::shared_ptr<const NwayRounds>, 2> kept;  // the last first
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const std::shared_ptr<const NwayRounds>& k = kept[i];
    if (k && k->p == p && k->n == n && k->rule == rule && k->rank == rank) {
      if (i > 0) std::swap(kept[0], kept[i]);
      return kept[0];
    }
  }
  const NwaySchedule schedule(NwayPlan(p, n, rule), rank);
  auto made = std::make_shared<NwayRounds>();
  made->p = p, made->n = n, made->rule = rule, made->rank = rank;
  made->result = schedule.result();
  made->rounds.reserve(static_cast<std::size_t>(schedule.rounds()));
  for (int i = 0; i < schedule.rounds(); ++i) made->rounds.push_back(schedule.round(i));
  kept[1] = std::move(kept[0]);
  kept[0] = std::move(made);
  return kept[0];
}

void nway_allreduce_on(const CommInfo& ci, const void* sendbuf, void* recvbuf, int count,
                       MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int n) {
  std::optional<NwayAllreduce> running;  // on the stack: a blocking call keeps nothing
  try {
    running.emplace(sendbuf, recvbuf, count, datatype, type, op, ci, n, nway_rule());
  } catch (const std::invalid_argument& e) {
    throw Error(MPI_ERR_ARG, e.what());
  }
  running->finish();
}

void set_nway(int n, const char* rule) {
  if (n < 0 || n > kNwayMaxPorts) {
    throw Error(MPI_ERR_ARG, "n = " + std::to_string(n) + " is outside [1, 64] (0: default)");
  }
  int r = -1;
  if (rule) {
    try {
      r = static_cast<int>(parse_nway_rule(rule));
    } catch (const std::invalid_argument& e) {
      throw Error(MPI_ERR_ARG, e.what());
    }
  }
  ports_override.store(n, std::memory_order_relaxed);
  rule_override.store(r, std::memory_order_relaxed);
}

NwayAllreduce::NwayAllreduce(const void* sendbuf, void* recvbuf, int count,
                             MPI_Datatype datatype, const TypeInfo& type, MPI_Op op,
                             const CommInfo& ci, int n, NwayRule rule)
    : count_(count),
      datatype_(datatype),
      type_(type),
      op_(op),
      c_(ci.c),
      recvbuf_(recvbuf),
      tag_base_(tag::kNwayFirst + static_cast<int>(next_sequence(ci) % tag::kNwayInFlight) *
                                      tag::kNwayTagsPerCall),
      schedule_(rounds_of(ci.p, n, rule, ci.rank)),
      ports_(static_cast<std::size_t>(n)),
      blocks_(2 * ports_),
      requests_(2 * ports_, MPI_REQUEST_NULL) {
  acc_[0].emplace(type_, count_);
  local_copy(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, acc_[0]->data(), count_, datatype_, type_);
  has_[0] = has_[1] = true;  // kOwn and kMain start as x
}

NwayAllreduce::~NwayAllreduce() {
  // Only after an error: cancel and release what is still outstanding.
  cancel_requests(requests_.data(), request_count_);
}

void* NwayAllreduce::acc(int a) {
  return a == 1 && main_is_own_ ? acc_[0]->data() : acc_[a]->data();
}

void* NwayAllreduce::own_acc(int a) {
  if (!acc_[a]) acc_[a].emplace(type_, count_);
  if (a == 1 && main_is_own_) {
    copy_elements(acc_[1]->data(), acc_[0]->data(), type_, count_);
    main_is_own_ = false;
  }
  return acc_[a]->data();
}

const void* NwayAllreduce::combined(std::uint8_t mask, std::optional<ScratchBuffer>& scratch) {
  const void* only = nullptr;
  int held = 0;
  for (int a = 0; a < kNwayAccs; ++a) {
    if ((mask >> a & 1) && has_[a]) only = acc(a), ++held;
  }
  if (held == 0) throw Error(MPI_ERR_INTERN, "n-way round " + std::to_string(round_) + " would send an empty value");
  if (held == 1) return only;
  if (!scratch) scratch.emplace(type_, count_);
  bool first = true;
  for (int a = 0; a < kNwayAccs; ++a) {
    if (!((mask >> a & 1) && has_[a])) continue;
    if (first) {
      copy_elements(scratch->data(), acc(a), type_, count_);
      first = false;
    } else {
      check(PMPI_Reduce_local(acc(a), scratch->data(), count_, datatype_, op_), "MPI_Reduce_local");
    }
  }
  return scratch->data();
}

void NwayAllreduce::fold_into(int a, const void* part) {
  if (!has_[a]) {
    copy_elements(own_acc(a), part, type_, count_);
    has_[a] = true;
  } else {
    check(PMPI_Reduce_local(part, own_acc(a), count_, datatype_, op_), "MPI_Reduce_local");
  }
}

void NwayAllreduce::post_round() {
  now_ = &schedule_->rounds[static_cast<std::size_t>(round_)];
  const std::size_t sends = now_->sends.size(), recvs = now_->recvs.size();
  if (sends > ports_ || recvs > ports_) {
    throw Error(MPI_ERR_INTERN, "n-way round " + std::to_string(round_) + " has more messages than ports");
  }
  request_count_ = static_cast<int>(sends + recvs);
  std::fill(requests_.begin(), requests_.begin() + request_count_, MPI_REQUEST_NULL);
  const int tag_round = tag_base_ + round_ * (kNwayMaxPorts + 1);
  for (std::size_t m = 0; m < recvs; ++m) {
    const NwayMessage& r = now_->recvs[m];
    in(m).emplace(type_, r.vectors * count_);
    check(PMPI_Irecv(in(m)->data(), r.vectors * count_, datatype_, static_cast<int>(r.peer),
                    tag_round + r.port, c_, &requests_[m]),
          "MPI_Irecv");
  }
  for (std::size_t m = 0; m < sends; ++m) {
    const NwayMessage& s = now_->sends[m];
    const void* data = nullptr;
    out(m).reset();
    if (s.vectors == 1) {
      data = combined(s.v[0].accs, out(m));  // a combination lives in out(m) until sent
    } else {
      out(m).emplace(type_, s.vectors * count_);
      std::optional<ScratchBuffer> part;
      for (int v = 0; v < s.vectors; ++v) {
        const void* x = combined(s.v[v].accs, part);
        copy_elements(static_cast<char*>(out(m)->data()) + v * count_ * type_.extent, x, type_, count_);
      }
      data = out(m)->data();
    }
    check(PMPI_Isend(data, s.vectors * count_, datatype_, static_cast<int>(s.peer),
                    tag_round + s.port, c_, &requests_[recvs + m]),
          "MPI_Isend");
  }
  posted_ = true;
}

void NwayAllreduce::complete_round() {
  if (now_->copy_to) {
    std::optional<ScratchBuffer> scratch;
    const void* from = combined(now_->copy_from, scratch);
    for (int a = 0; a < kNwayAccs; ++a) {
      if (now_->copy_to >> a & 1) {
        copy_elements(own_acc(a), from, type_, count_);
        has_[a] = true;
      }
    }
  }
  for (std::size_t m = 0; m < now_->recvs.size(); ++m) {
    const NwayMessage& r = now_->recvs[m];
    for (int v = 0; v < r.vectors; ++v) {
      const void* part = static_cast<const char*>(in(m)->data()) + v * count_ * type_.extent;
      for (int a = 0; a < kNwayAccs; ++a) {
        if (r.v[v].accs >> a & 1) fold_into(a, part);
      }
    }
  }
  posted_ = false;
  ++round_;
}

bool NwayAllreduce::advance(bool block) {
  while (!done_) {
    if (round_ == static_cast<int>(schedule_->rounds.size())) {
      write_result();
      break;
    }
    if (!posted_) post_round();
    if (block) {
      check(PMPI_Waitall(request_count_, requests_.data(),
                        MPI_STATUSES_IGNORE),
            "MPI_Waitall");
    } else {
      int flag = 0;
      check(PMPI_Testall(request_count_, requests_.data(), &flag,
                        MPI_STATUSES_IGNORE),
            "MPI_Testall");
      if (!flag) return false;
    }
    complete_round();
  }
  return true;
}

void NwayAllreduce::write_result() {
  std::optional<ScratchBuffer> scratch;
  local_copy(combined(schedule_->result, scratch), recvbuf_, count_, datatype_, type_);
  done_ = true;
}

bool NwayAllreduce::progress() { return advance(false); }

// Blocking: no MPI_Testall at all (SimGrid SMPI charges simulated time for every test, by
// default 100 us, which made a blocking call at p = 36 take 1.2-7 ms instead of 24 us).
void NwayAllreduce::finish() { advance(true); }

}  // namespace rosched::mpi
