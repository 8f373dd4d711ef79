#include "engine/des/serving/request_replay.hpp"

#include <algorithm>
#include <cmath>
#include <deque>

#include "core/random/random.hpp"
#include "engine/des/batch_draws.hpp"
#include "engine/des/serving/keyed_heaps.hpp"
#include "engine/des/serving/least_loaded.hpp"

namespace tco::serving {

void RequestReplayStats::merge(const RequestReplayStats& o) {
  arrived += o.arrived;
  served += o.served;
  dropped += o.dropped;
  waited += o.waited;
  within_slo += o.within_slo;
  wait_s_sum += o.wait_s_sum;
  ttft_s_sum += o.ttft_s_sum;
  e2e_s_sum += o.e2e_s_sum;
  input_tokens_served += o.input_tokens_served;
  output_tokens_served += o.output_tokens_served;
  busy_replica_s += o.busy_replica_s;
  max_queue = std::max(max_queue, o.max_queue);
  to_api += o.to_api;
  rented_tokens_served += o.rented_tokens_served;
  api_input_tokens += o.api_input_tokens;
  api_output_tokens += o.api_output_tokens;
  rented_launched += o.rented_launched;
  rented_billed_replica_s += o.rented_billed_replica_s;
  max_rented_running = std::max(max_rented_running, o.max_rented_running);
  if (venues.size() < o.venues.size()) venues.resize(o.venues.size());
  for (std::size_t v = 0; v < o.venues.size(); ++v) {
    venues[v].entered += o.venues[v].entered;
    venues[v].served += o.venues[v].served;
    venues[v].launched += o.venues[v].launched;
    venues[v].tokens_served += o.venues[v].tokens_served;
    venues[v].billed_replica_s += o.venues[v].billed_replica_s;
  }
  wait_s.merge(o.wait_s);
  ttft_s.merge(o.ttft_s);
  tpot_s.merge(o.tpot_s);
  e2e_s.merge(o.e2e_s);
  if (!o.by_load.empty()) by_load.resize(kLoadBins);
  for (std::size_t b = 0; b < o.by_load.size(); ++b) {
    by_load[b].served += o.by_load[b].served;
    by_load[b].requests_per_s_sum += o.by_load[b].requests_per_s_sum;
    by_load[b].ttft_s.merge(o.by_load[b].ttft_s);
  }
}

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

struct Request {
  // admitted_s: while the request waits at an overflow venue, when it entered it.
  double arrival_s, input_tokens, output_tokens, admitted_s, decode_start_s;
  std::uint64_t index;  // in arrival order
  bool counted;
};

// Requests in flight, their slots reused: memory follows the requests in the system, not those served.
class RequestSlab {
 public:
  std::uint32_t add(const Request& r) {
    if (free_.empty()) {
      items_.push_back(r);
      return static_cast<std::uint32_t>(items_.size() - 1);
    }
    const std::uint32_t id = free_.back();
    free_.pop_back();
    items_[id] = r;
    return id;
  }
  void release(std::uint32_t id) { free_.push_back(id); }
  Request& operator[](std::uint32_t id) { return items_[id]; }
  const Request& operator[](std::uint32_t id) const { return items_[id]; }

 private:
  std::vector<Request> items_;
  std::vector<std::uint32_t> free_;
};

// held: all through the replay; a scaled rented replica, or a venue's, is off, starting
// (launched, not yet routed to) or running.
enum class ReplicaState : std::uint8_t { held, off, starting, running };

struct Replica {
  ReplicaState state = ReplicaState::held;
  int venue = -1;            // the overflow venue it belongs to (-1: the fleet)
  double launched_s = 0.0, idle_since_s = 0.0;
  int active = 0;            // prefilling or decoding
  double attained = 0.0;     // A(t) at attained_at_s: tokens a request decoding all along has decoded
  double attained_at_s = 0.0;
  double busy_since_s = 0.0;
  KeyedHeap prefill;         // (the time its prefill ends, request)
  KeyedHeap decode;          // (the attained service at which it has decoded its output, request)
  std::deque<std::uint32_t> queue;  // the fleet's replicas only: a venue's requests wait at the venue
};

// An overflow venue's replicas [first, first + count) and its FIFO queue. Its clock in the replay's
// heap is the queue head's end of bound; `free` keys each running replica with a free slot by its
// active requests (the least active first, then the lowest index), the others +inf.
struct Venue {
  std::uint32_t first = 0;
  std::vector<std::uint32_t> off;  // replicas not running, the lowest index last
  std::deque<std::uint32_t> queue;
  std::uint64_t starting = 0;
  IndexedHeap free;
  explicit Venue(std::uint32_t count) : free(count, std::numeric_limits<double>::infinity()) {}
};

// The arrivals of one path: drawn, or the trace's.
class ArrivalStream {
 public:
  ArrivalStream(const RequestReplayConfig& c, std::uint32_t path) : c_(c), path_(path) {}

  bool next(TraceRequest& out) {
    if (!c_.trace.empty()) {
      if (index_ >= c_.trace.size()) {
        if (!(c_.trace_period_s > 0.0)) return false;
        index_ = 0;
        ++repeat_;
      }
      out = c_.trace[index_++];
      out.arrival_s += static_cast<double>(repeat_) * c_.trace_period_s;
      return out.arrival_s < c_.trace_until_s;
    }
    if (drawn_ == ready_) draw_block();
    const std::size_t k = drawn_++;
    // A unit exponential spent on the integrated rate: exact for a rate constant in each step.
    double exposure = -std::log(arrival_u_[k]);
    while (true) {
      if (step_ >= c_.requests_per_s_by_step.size()) return false;
      const double rate = c_.requests_per_s_by_step[step_];
      const double step_end_s = static_cast<double>(step_ + 1) * c_.step_s;
      const double room = rate * (step_end_s - t_);
      if (exposure < room) {
        t_ += exposure / rate;
        break;
      }
      exposure -= room;
      t_ = step_end_s;
      ++step_;
    }
    out.arrival_s = t_;
    out.input_tokens = c_.input_tokens.draw(input_u_[k]);
    out.output_tokens = fixed_output_ ? c_.output_tokens.value : c_.output_tokens.draw(output_u_[k]);
    ++index_;
    return true;
  }

 private:
  // Request index_'s uniforms and the next ones' (up to kBlock, never across a change of the
  // index's high word), drawn at once so that Philox runs in vector lanes: the same bits as
  // uniform_pair(seed, path, request_arrival, hi, lo) and uniform(..., request_tokens, hi, lo)
  // request by request.
  void draw_block() {
    const auto hi = static_cast<std::uint32_t>(index_ >> 32), lo = static_cast<std::uint32_t>(index_);
    const std::uint64_t left_in_word = (std::uint64_t{1} << 32) - lo;
    const int n = left_in_word < kBlock ? static_cast<int>(left_in_word) : kBlock;
    for (int j = 0; j < n; ++j) lo_[j] = lo + static_cast<std::uint32_t>(j);
    des::uniform_pairs_by_draw(c_.seed, path_, RandomSource::request_arrival, hi, lo_, n, arrival_u_, input_u_);
    if (!fixed_output_) des::uniform_pairs_by_draw(c_.seed, path_, RandomSource::request_tokens, hi, lo_, n, output_u_, nullptr);
    drawn_ = 0;
    ready_ = static_cast<std::size_t>(n);
  }

  static constexpr int kBlock = 64;
  const RequestReplayConfig& c_;
  std::uint32_t path_;
  bool fixed_output_ = c_.output_tokens.kind == TokenLength::Kind::fixed;
  std::size_t drawn_ = 0, ready_ = 0;  // of the block's uniforms
  std::uint32_t lo_[kBlock];
  double arrival_u_[kBlock], input_u_[kBlock], output_u_[kBlock];
  std::uint64_t index_ = 0;
  std::uint64_t repeat_ = 0;  // the trace's repeats before this one
  std::size_t step_ = 0;
  double t_ = 0.0;
};

class Replay {
 public:
  Replay(const RequestReplayConfig& c, std::vector<RequestRecord>* records)
      : c_(c),
        records_(records),
        primary_(static_cast<std::uint32_t>(c.replicas + c.scaling.max_replicas)),
        total_(primary_ + venue_replicas(c)),
        owned_(c.owned_replicas < 0 ? primary_ : static_cast<std::uint32_t>(c.owned_replicas)),
        slots_(c.rates.max_concurrency()),
        timely_(!c.venues.empty()),
        pull_(c.scaling.max_replicas > 0),
        replicas_(total_),
        clock_(total_ + static_cast<std::uint32_t>(c.venues.size()), kNever),
        heads_(pull_ ? primary_ : 0, kNever),
        load_(primary_) {
    step_load_ = step_loads(c);
    for (double l : step_load_) max_load_ = std::max(max_load_, l);
    for (std::uint32_t i = primary_; i-- > static_cast<std::uint32_t>(c.replicas);) {
      replicas_[i].state = ReplicaState::off;
      load_.park(i);
      off_.push_back(i);
    }
    std::uint32_t first = primary_;
    for (std::size_t v = 0; v < c.venues.size(); ++v) {
      const OverflowVenue& spec = c.venues[v];
      venues_.emplace_back(static_cast<std::uint32_t>(spec.max_replicas));
      venues_.back().first = first;
      for (std::uint32_t i = first + static_cast<std::uint32_t>(spec.max_replicas); i-- > first;) {
        replicas_[i] = {};
        replicas_[i].state = ReplicaState::off;
        replicas_[i].venue = static_cast<int>(v);
        venues_.back().off.push_back(i);
      }
      first += static_cast<std::uint32_t>(spec.max_replicas);
    }
    stats_.venues.resize(c.venues.size());
  }

  RequestReplayStats run(std::uint32_t path) {
    ArrivalStream arrivals(c_, path);
    TraceRequest next{};
    bool more = arrivals.next(next);
    while (true) {
      const double replica_event_s = clock_.top_key();
      if (more && next.arrival_s < replica_event_s) {
        arrive(next);
        more = arrivals.next(next);
        continue;
      }
      if (replica_event_s == kNever) break;
      replica_event(clock_.top(), replica_event_s);
    }
    return stats_;
  }

 private:
  static std::uint32_t venue_replicas(const RequestReplayConfig& c) {
    std::uint32_t n = 0;
    for (const OverflowVenue& v : c.venues) n += static_cast<std::uint32_t>(v.max_replicas);
    return n;
  }

  double rate(int active) const { return c_.rates.decode_tokens_per_s_by_active[static_cast<std::size_t>(active - 1)]; }

  void advance(Replica& r, double now_s) {
    if (r.active > 0) r.attained += rate(r.active) * (now_s - r.attained_at_s);
    r.attained_at_s = now_s;
  }

  // With overflow venues a request leaves the fleet's queue at the very time its wait reaches
  // max_wait_s (it enters the next venue then); without, it is seen when its replica next acts.
  double expiry_s(const Replica& r) const { return slab_[r.queue.front()].arrival_s + c_.max_wait_s; }

  double startup_s(const Replica& r) const {
    return r.venue < 0 ? c_.scaling.startup_s : c_.venues[static_cast<std::size_t>(r.venue)].startup_s;
  }
  double idle_s(const Replica& r) const {
    return r.venue < 0 ? c_.scaling.idle_s : c_.venues[static_cast<std::size_t>(r.venue)].idle_s;
  }

  double next_event_s(const Replica& r) const {
    if (r.state == ReplicaState::starting) return r.launched_s + startup_s(r);
    if (idle(r)) return r.idle_since_s + idle_s(r);
    double t = r.prefill.empty() ? kNever : r.prefill.top().key;
    if (!r.decode.empty())
      t = std::min(t, r.attained_at_s + std::max(0.0, r.decode.top().key - r.attained) / rate(r.active));
    if (timely_ && !r.queue.empty()) t = std::min(t, expiry_s(r));
    return t;
  }

  // Inlined at each caller: an arrival's and a replica event's updates branch differently.
  [[gnu::always_inline]] void reschedule(std::uint32_t i) {
    const Replica& r = replicas_[i];
    clock_.set(i, next_event_s(r));
    if (i >= primary_) [[unlikely]] return reschedule_venue_replica(i);
    if (c_.router == Router::least_active) load_.set(i, static_cast<std::uint32_t>(r.active + r.queue.size()));
    if (pull_) [[unlikely]] heads_.set(i, r.queue.empty() ? kNever : slab_[r.queue.front()].arrival_s);
  }

  // Out of line: the fleet's events, the hot ones, never come here.
  [[gnu::noinline]] void reschedule_venue_replica(std::uint32_t i) {
    const Replica& r = replicas_[i];
    const bool free = r.state == ReplicaState::running && r.active < slots_;
    Venue& v = venues_[static_cast<std::size_t>(r.venue)];
    v.free.set(i - v.first, free ? static_cast<double>(r.active) : kNever);
  }

  // A running rented replica with nothing to do: removed idle_s after it became so.
  static bool idle(const Replica& r) { return r.state == ReplicaState::running && r.active == 0 && r.queue.empty(); }
  static bool routable(const Replica& r) { return r.state == ReplicaState::held || r.state == ReplicaState::running; }

  std::uint32_t route() {
    if (c_.router == Router::least_active) return load_.choose();
    while (true) {
      const auto i = static_cast<std::uint32_t>(round_robin_++ % primary_);
      if (routable(replicas_[i])) return i;
    }
  }

  void launch_if_waiting_long(const Replica& r, double now_s) {
    if (off_.empty() || r.queue.empty() || now_s - slab_[r.queue.front()].arrival_s <= c_.scaling.wait_threshold_s)
      return;
    const auto slots = static_cast<std::uint64_t>(slots_);
    if (starting_ >= (waiting_ + slots - 1) / slots) return;
    const std::uint32_t i = off_.back();
    off_.pop_back();
    Replica& s = replicas_[i];
    s.state = ReplicaState::starting;
    s.launched_s = now_s;
    ++starting_;
    ++stats_.rented_launched;
    stats_.max_rented_running = std::max(stats_.max_rented_running, c_.scaling.max_replicas - static_cast<int>(off_.size()));
    clock_.set(i, next_event_s(s));
  }

  // A rented replica's own events: it starts taking requests, or it is removed after its idle time.
  // A scaled one that starts (or later frees a slot with no request of its own waiting) takes the
  // oldest requests waiting at the fleet's replicas; a venue's, its venue's queue.
  void scaling_event(std::uint32_t i, Replica& r, double now_s) {
    if (r.state == ReplicaState::starting) {
      r.state = ReplicaState::running;
      r.idle_since_s = now_s;
      r.attained_at_s = now_s;
      if (r.venue >= 0) {
        --venues_[static_cast<std::size_t>(r.venue)].starting;
        admit_from_venue(static_cast<std::size_t>(r.venue), i, now_s);
      } else {
        --starting_;
        load_.unpark(i);
        pull_waiting(i, now_s);
      }
    } else {
      r.state = ReplicaState::off;
      if (r.venue >= 0) {
        stats_.venues[static_cast<std::size_t>(r.venue)].billed_replica_s += now_s - r.launched_s;
        venues_[static_cast<std::size_t>(r.venue)].off.push_back(i);
      } else {
        stats_.rented_billed_replica_s += now_s - r.launched_s;
        load_.park(i);
        off_.push_back(i);
      }
    }
    reschedule(i);
  }

  // Replica i, just running, takes waiting requests oldest first (by arrival, across the fleet's
  // queues: heads_ keys each replica by its queue's head) while it has a free slot.
  void pull_waiting(std::uint32_t i, double now_s) {
    Replica& r = replicas_[i];
    while (r.active < slots_ && heads_.top_key() < kNever) {
      const std::uint32_t j = heads_.top();
      Replica& w = replicas_[j];
      drop_expired(w, now_s);
      if (!w.queue.empty()) {
        const std::uint32_t id = w.queue.front();
        w.queue.pop_front();
        --waiting_;
        if (records_) (*records_)[slab_[id].index].replica = static_cast<int>(i);
        admit(r, id, now_s);
      }
      reschedule(j);
    }
  }

  void arrive(const TraceRequest& t) {
    const bool counted = t.arrival_s >= c_.warmup_s;
    const std::uint32_t id =
        slab_.add({t.arrival_s, t.input_tokens, t.output_tokens, 0.0, 0.0, arrivals_++, counted});
    if (records_) {
      RequestRecord rec;
      rec.arrival_s = t.arrival_s;
      rec.input_tokens = t.input_tokens;
      rec.output_tokens = t.output_tokens;
      records_->push_back(rec);
    }
    if (counted) ++stats_.arrived;
    const std::uint32_t i = route();
    Replica& r = replicas_[i];
    if (records_) (*records_)[slab_[id].index].replica = static_cast<int>(i);
    drop_expired(r, t.arrival_s);
    if (r.active < slots_ && r.queue.empty()) {
      admit(r, id, t.arrival_s);
    } else {
      r.queue.push_back(id);
      ++waiting_;
      stats_.max_queue = std::max<std::uint64_t>(stats_.max_queue, r.queue.size());
      launch_if_waiting_long(r, t.arrival_s);
    }
    reschedule(i);
  }

  // Requests at the queue's head that have waited past max_wait_s leave it: to the first overflow
  // venue at that time, else to the API or dropped (seen now, left at arrival + max_wait_s).
  void drop_expired(Replica& r, double now_s) {
    while (!r.queue.empty() &&
           (timely_ ? expiry_s(r) <= now_s : now_s - slab_[r.queue.front()].arrival_s > c_.max_wait_s)) [[unlikely]] {
      const std::uint32_t id = r.queue.front();
      r.queue.pop_front();
      --waiting_;
      if (timely_) enter_venue(0, id, now_s);
      else leave(id, slab_[id].arrival_s + c_.max_wait_s);
    }
  }

  // Request `id` leaves the last venue at finished_s: to the API, or dropped.
  void leave(std::uint32_t id, double finished_s) {
    Request& q = slab_[id];
    if (q.counted && c_.overflow_to_api) {
      ++stats_.to_api;
      stats_.api_input_tokens += q.input_tokens;
      stats_.api_output_tokens += q.output_tokens;
    } else if (q.counted) {
      ++stats_.dropped;
    }
    if (records_) {
      RequestRecord& rec = (*records_)[q.index];
      rec.dropped = !c_.overflow_to_api;
      rec.to_api = c_.overflow_to_api;
      rec.finished_s = finished_s;
    }
    slab_.release(id);
  }

  // Request `id` enters overflow venue v (past the last: leaves) at now_s.
  void enter_venue(std::size_t v, std::uint32_t id, double now_s) {
    if (v == venues_.size()) return leave(id, now_s);
    Request& q = slab_[id];
    q.admitted_s = now_s;  // its entry, until it is admitted
    if (q.counted) ++stats_.venues[v].entered;
    Venue& venue = venues_[v];
    const OverflowVenue& spec = c_.venues[v];
    if (venue.free.top_key() < kNever) {
      const std::uint32_t i = venue.first + venue.free.top();
      if (records_) (*records_)[q.index].replica = static_cast<int>(i);
      admit(replicas_[i], id, now_s);
      return reschedule(i);
    }
    if (!(spec.max_wait_s > 0.0)) return enter_venue(v + 1, id, now_s);
    venue.queue.push_back(id);
    const auto slots = static_cast<std::uint64_t>(slots_);
    if (!venue.off.empty() && spec.startup_s < spec.max_wait_s &&
        venue.starting < (venue.queue.size() + slots - 1) / slots) {
      const std::uint32_t i = venue.off.back();
      venue.off.pop_back();
      Replica& s = replicas_[i];
      s.state = ReplicaState::starting;
      s.launched_s = now_s;
      ++venue.starting;
      ++stats_.venues[v].launched;
      clock_.set(i, next_event_s(s));
    }
    venue_clock(v);
  }

  // Venue v's clock: when its queue's head reaches the end of its bound.
  void venue_clock(std::size_t v) {
    const Venue& venue = venues_[v];
    clock_.set(total_ + static_cast<std::uint32_t>(v),
               venue.queue.empty() ? kNever : slab_[venue.queue.front()].admitted_s + c_.venues[v].max_wait_s);
  }

  // Venue v's requests whose bound has ended go on to the next venue.
  void venue_expiry(std::size_t v, double now_s) {
    Venue& venue = venues_[v];
    while (!venue.queue.empty() && slab_[venue.queue.front()].admitted_s + c_.venues[v].max_wait_s <= now_s) {
      const std::uint32_t id = venue.queue.front();
      venue.queue.pop_front();
      enter_venue(v + 1, id, now_s);
    }
    venue_clock(v);
  }

  // Replica i of venue v, with a free slot, takes the venue's waiting requests in order.
  void admit_from_venue(std::size_t v, std::uint32_t i, double now_s) {
    venue_expiry(v, now_s);
    Venue& venue = venues_[v];
    Replica& r = replicas_[i];
    while (r.active < slots_ && !venue.queue.empty()) {
      const std::uint32_t id = venue.queue.front();
      venue.queue.pop_front();
      if (records_) (*records_)[slab_[id].index].replica = static_cast<int>(i);
      admit(r, id, now_s);
    }
    venue_clock(v);
  }

  void admit(Replica& r, std::uint32_t id, double now_s) {
    advance(r, now_s);
    if (r.active++ == 0) r.busy_since_s = now_s;
    Request& q = slab_[id];
    q.admitted_s = now_s;
    const auto& prefill = c_.rates.prefill_s_per_input_token_by_active;
    const double prefill_s = prefill.empty() ? 0.0 : q.input_tokens * prefill[static_cast<std::size_t>(r.active - 1)];
    if (prefill_s > 0.0)
      r.prefill.push({now_s + prefill_s, id});
    else
      start_decode(r, id, now_s);
  }

  void start_decode(Replica& r, std::uint32_t id, double now_s) {
    Request& q = slab_[id];
    q.decode_start_s = now_s;
    r.decode.push({r.attained + q.output_tokens, id});
  }

  void replica_event(std::uint32_t i, double now_s) {
    if (i >= total_) return venue_expiry(i - total_, now_s);
    Replica& r = replicas_[i];
    if (r.state == ReplicaState::starting || idle(r)) return scaling_event(i, r, now_s);
    if (timely_ && !r.queue.empty() && expiry_s(r) <= now_s) {
      drop_expired(r, now_s);
      return reschedule(i);
    }
    advance(r, now_s);
    if (!r.prefill.empty() && r.prefill.top().key <= now_s) {
      start_decode(r, r.prefill.pop().id, now_s);
    } else {
      const std::uint32_t id = r.decode.pop().id;
      if (--r.active == 0) stats_.busy_replica_s += now_s - r.busy_since_s;
      finish(id, now_s, i, r.venue);
      if (r.venue >= 0) {
        admit_from_venue(static_cast<std::size_t>(r.venue), i, now_s);
      } else {
        drop_expired(r, now_s);
        if (!r.queue.empty()) {
          const std::uint32_t waiting = r.queue.front();
          r.queue.pop_front();
          --waiting_;
          admit(r, waiting, now_s);
        } else if (pull_ && i >= static_cast<std::uint32_t>(c_.replicas)) {
          pull_waiting(i, now_s);  // a scaled replica with nothing of its own drains the fleet's queues
        }
      }
      if (idle(r)) r.idle_since_s = now_s;
    }
    reschedule(i);
  }

  void finish(std::uint32_t id, double now_s, std::uint32_t replica, int venue) {
    Request& q = slab_[id];
    if (q.counted) {
      const double wait_s = q.admitted_s - q.arrival_s, ttft_s = q.decode_start_s - q.arrival_s;
      const double decode_s = now_s - q.decode_start_s, e2e_s = now_s - q.arrival_s;
      const double tpot_s = decode_s / q.output_tokens;
      ++stats_.served;
      if (wait_s > 0.0) ++stats_.waited;
      stats_.wait_s_sum += wait_s;
      stats_.ttft_s_sum += ttft_s;
      stats_.e2e_s_sum += e2e_s;
      stats_.input_tokens_served += q.input_tokens;
      stats_.output_tokens_served += q.output_tokens;
      if (replica >= owned_) stats_.rented_tokens_served += q.input_tokens + q.output_tokens;
      if (venue >= 0) {
        VenueStats& vs = stats_.venues[static_cast<std::size_t>(venue)];
        ++vs.served;
        vs.tokens_served += q.input_tokens + q.output_tokens;
      }
      stats_.wait_s.add(wait_s);
      stats_.ttft_s.add(ttft_s);
      stats_.tpot_s.add(tpot_s);
      stats_.e2e_s.add(e2e_s);
      add_by_load(q.arrival_s, ttft_s);
      if (ttft_s <= c_.slo_max_ttft_s && q.output_tokens >= c_.slo_min_tokens_per_s_per_user * decode_s) ++stats_.within_slo;
    }
    if (records_) {
      RequestRecord& rec = (*records_)[q.index];
      rec.admitted_s = q.admitted_s;
      rec.first_token_s = q.decode_start_s;
      rec.finished_s = now_s;
      rec.venue = venue;
    }
    slab_.release(id);
  }

  // The requests/s of the step a request arrived in (docs/des.md "Latency against load").
  static std::vector<double> step_loads(const RequestReplayConfig& c) {
    if (c.trace.empty()) return c.requests_per_s_by_step;
    const double span_s = c.trace_period_s > 0.0 ? c.trace_period_s : c.trace.back().arrival_s;
    std::vector<double> loads(static_cast<std::size_t>(std::floor(span_s / c.step_s)) + 1, 0.0);
    for (const TraceRequest& t : c.trace)
      loads[std::min(loads.size() - 1, static_cast<std::size_t>(t.arrival_s / c.step_s))] += 1.0 / c.step_s;
    return loads;
  }

  void add_by_load(double arrival_s, double ttft_s) {
    if (!(max_load_ > 0.0)) return;
    const double within_s = c_.trace.empty() || !(c_.trace_period_s > 0.0) ? arrival_s : std::fmod(arrival_s, c_.trace_period_s);
    const double load = step_load_[std::min(step_load_.size() - 1, static_cast<std::size_t>(within_s / c_.step_s))];
    const int bin = std::min(kLoadBins - 1, static_cast<int>(load / max_load_ * kLoadBins));
    if (stats_.by_load.empty()) stats_.by_load.resize(kLoadBins);
    LoadBin& b = stats_.by_load[static_cast<std::size_t>(bin)];
    ++b.served;
    b.requests_per_s_sum += load;
    b.ttft_s.add(ttft_s);
  }

  const RequestReplayConfig& c_;
  std::vector<RequestRecord>* records_;
  std::vector<double> step_load_;
  double max_load_ = 0.0;
  std::uint32_t primary_;  // the fleet: held + scaled
  std::uint32_t total_;    // the fleet + the venues' replicas
  std::uint32_t owned_;    // replicas [0, owned_) are owned
  int slots_;              // max_concurrency
  bool timely_;            // overflow venues: a request leaves the fleet's queue at its max_wait_s
  bool pull_;              // rented scaling: a replica that starts takes the oldest waiting requests
  std::vector<Replica> replicas_;
  std::vector<Venue> venues_;
  std::vector<std::uint32_t> off_;  // scaled replicas not running, the lowest index last
  std::uint64_t waiting_ = 0;       // requests waiting at the fleet's replicas
  std::uint64_t starting_ = 0;      // scaled replicas launched, not yet running
  IndexedHeap clock_;  // each replica's next event time, then each venue's queue's
  IndexedHeap heads_;  // the fleet's replicas by their queue's head's arrival (pull_ only)
  LeastLoaded load_;   // each fleet replica's active + waiting requests (the least-active router)
  RequestSlab slab_;
  RequestReplayStats stats_;
  std::uint64_t arrivals_ = 0, round_robin_ = 0;
};

}  // namespace

RequestReplayStats replay_requests(const RequestReplayConfig& config, std::uint32_t path,
                                   std::vector<RequestRecord>* records) {
  return Replay(config, records).run(path);
}

}  // namespace tco::serving
