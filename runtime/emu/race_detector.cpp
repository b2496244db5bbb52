#include "runtime/emu/race_detector.hpp"

#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <vector>

#if defined(__SANITIZE_ADDRESS__) || defined(KVERIFY_EMU_ASAN_RUNTIME)
#define KV_RACE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KV_RACE_ASAN 1
#endif
#endif
#if defined(KV_RACE_ASAN)
#include <sanitizer/asan_interface.h>
#endif

namespace kverify::emu::race {
namespace {

constexpr std::uint16_t kMany = 0xffff;
constexpr std::size_t kGranule = 8;  // bytes per shadow cell (its masks name the bytes)

// One recorded access to a granule. The pc is an offset from this file's code (kernels are linked
// into the same program), so that a side fits in 24 bytes.
struct Side {
  std::uint32_t stamp = 0;  // the barrier interval (launch-wide counter; 0: none)
  std::uint32_t block = 0;  // linear block index
  std::uint32_t sync = 0;   // the thread's warp-synchronisation count at the access (readers: the largest)
  std::int32_t pc = 0;
  std::uint16_t thread = 0;  // linear thread index in the block, or kMany
  std::uint16_t warp = 0;    // or kMany
  std::uint8_t mask = 0;     // bytes of the granule
  std::uint8_t atomic = 0;
};

struct Cell {
  Side write, read;
  std::uint32_t fence_epoch = 0;  // the launch's fence count when `write` happened
  std::uint32_t init_stamp = 0;   // the first stamp of the block that wrote init_mask
  std::uint8_t init_mask = 0;
};

// Zeroed shadow memory, mapped lazily by the kernel (only touched pages cost memory).
class Shadow {
 public:
  Shadow() = default;
  explicit Shadow(std::size_t cells) : cells_(cells) {
    if (cells == 0) return;
    void* p =
        mmap(nullptr, cells * sizeof(Cell), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("emu race detector: cannot map its shadow memory");
    data_ = static_cast<Cell*>(p);
  }
  Shadow(Shadow&& o) noexcept : data_(o.data_), cells_(o.cells_) { o.data_ = nullptr, o.cells_ = 0; }
  Shadow& operator=(Shadow&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(cells_, o.cells_);
    return *this;
  }
  ~Shadow() {
    if (data_) munmap(data_, cells_ * sizeof(Cell));
  }
  Cell* data() const { return data_; }
  std::size_t cells() const { return cells_; }
  void clear() {
    if (data_) madvise(data_, cells_ * sizeof(Cell), MADV_DONTNEED);
  }

 private:
  Cell* data_ = nullptr;
  std::size_t cells_ = 0;
};

enum class Space : std::uint8_t { static_shared, dynamic_shared, global };

struct Region {
  std::uintptr_t begin = 0, end = 0;  // begin rounded down to a granule
  Space space = Space::global;
  Cell* cells = nullptr;
  const std::string* name = nullptr;
};

// --- the static shared arena ---------------------------------------------------------------------

constexpr std::size_t kArenaBytes = 16u << 20;
constexpr std::size_t kRedzone = 32;

struct Slot {
  std::uintptr_t begin, end;
  std::string name;
};

struct Arena {
  unsigned char* base = nullptr;
  std::size_t used = 0;
  Shadow shadow;
  std::vector<Slot> slots;
  std::mutex m;

  Arena() {
    void* p = mmap(nullptr, kArenaBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("emu: cannot reserve the static shared memory arena");
    base = static_cast<unsigned char*>(p);
    shadow = Shadow(kArenaBytes / kGranule);
#if defined(KV_RACE_ASAN)
    __asan_poison_memory_region(base, kArenaBytes);
#endif
  }
};
Arena& arena() {
  static Arena a;
  return a;
}
// Read on every access: the arena's extent, without the function-static guard.
std::atomic<std::uintptr_t> arena_begin{0}, arena_end{0};

// --- registered device memory --------------------------------------------------------------------

// A region's shadow lives as long as the region (a Case's two runs and a launcher's several launches
// share it): older launches' records carry older stamps, so nothing needs clearing between launches.
struct Registered {
  std::uintptr_t begin, end;
  std::string name;
  std::shared_ptr<Shadow> shadow;
};
std::mutex regions_mutex;
std::vector<Registered>& registered() {
  static std::vector<Registered> r;
  return r;
}

// Shadows of regions that were removed, for the next ones (their pages are already mapped: faulting
// fresh pages in was a third of the detector's cost). Stale records carry older stamps than any
// later launch's, so a reused shadow needs no clearing. Under regions_mutex.
constexpr std::size_t kPoolBytes = 256u << 20;
std::vector<std::shared_ptr<Shadow>>& shadow_pool() {
  static std::vector<std::shared_ptr<Shadow>> pool;
  return pool;
}
std::shared_ptr<Shadow> pooled_shadow(std::size_t cells) {
  auto& pool = shadow_pool();
  for (auto it = pool.begin(); it != pool.end(); ++it)
    if ((*it)->cells() >= cells && (*it)->cells() <= 2 * cells + 4096) {
      auto s = std::move(*it);
      pool.erase(it);
      return s;
    }
  return std::make_shared<Shadow>(cells);
}
void return_shadow(std::shared_ptr<Shadow> s) {
  if (!s) return;
  auto& pool = shadow_pool();
  std::size_t bytes = s->cells() * sizeof(Cell);
  for (const auto& p : pool) bytes += p->cells() * sizeof(Cell);
  if (bytes <= kPoolBytes) pool.push_back(std::move(s));
}

// --- the state of the launch running on this OS thread -------------------------------------------

// In the order a report prefers them (widest first: see Launch::first).
enum class Kind : std::uint8_t { cross_block, intra_block, intra_warp, uninitialized_read };
constexpr const char* kKindNames[] = {"cross-block", "intra-block", "intra-warp", "uninitialized read"};
constexpr int kKinds = 4;

struct Race {
  Kind kind{};
  Space space{};
  const std::string* region = nullptr;
  std::uintptr_t offset = 0;
  Side earlier;
  Access earlier_kind{};
  Side later;
  Access later_kind{};
  std::size_t bytes = 0;
};

struct Launch {
  LaunchShape shape{};
  std::uint32_t launch_first = 0, block_first = 0, stamp = 0;
  std::uint32_t block = 0;
  std::uint32_t fence_epoch = 1;
  std::unordered_map<std::uint32_t, std::uint32_t> block_fence;  // block -> fence epoch after its last fence
  std::vector<std::uint32_t> sync;                               // per thread of the block
  std::vector<std::uint32_t> warp_count;                         // per warp
  std::vector<std::string> names;                                // the global regions' names (stable)
  Shadow dynamic_shadow;
  std::vector<std::shared_ptr<Shadow>> shadows;  // the device memory's, held for the launch
  std::vector<Region> regions;                   // [0] static shared, [1] dynamic shared, then device memory
  // The block's first finding of each kind; the report takes the widest (a race between blocks, then
  // warps, then lanes of a warp, then an uninitialized read, which is often one half of a race that
  // names both sides), so that its advice (__threadfence, __syncthreads, __syncwarp) is the one needed.
  std::optional<Race> first[kKinds];
  std::uint64_t count[kKinds] = {};
  std::string dynamic_name = "extern __shared__ (dynamic shared memory)";
};

constinit thread_local Launch* t_launch = nullptr;  // set while recording
constinit thread_local int t_thread = -1;
constinit thread_local int t_atomic = 0;
constinit thread_local std::uintptr_t t_atomic_begin = 0, t_atomic_end = 0;

// Process-wide (the static arena's and the regions' shadows outlive launches; launches may run on
// several OS threads at once).
std::atomic<std::uint32_t> g_stamp{0};

std::atomic<int> enabled_state{-1};  // -1: not read yet

std::int32_t pc_offset(const void* pc) {
  const auto d = reinterpret_cast<std::intptr_t>(pc) - reinterpret_cast<std::intptr_t>(&pc_offset);
  return d > INT32_MIN && d < INT32_MAX ? static_cast<std::int32_t>(d) : 0;
}
const void* pc_of(std::int32_t offset) {
  return offset == 0 ? nullptr : reinterpret_cast<const void*>(reinterpret_cast<std::intptr_t>(&pc_offset) + offset);
}

// file:line of a code address, from its debug information through binutils' addr2line (only when
// a race is reported). Of the inlined frames, the innermost one outside the system's headers.
std::string symbolize(std::int32_t offset);
// Cached per code address: a property's shrinking reports the same accesses many times, and each
// addr2line call reads the program's debug information anew.
std::string where_text(std::int32_t offset) {
  static std::mutex m;
  static std::unordered_map<std::int32_t, std::string> known;
  {
    std::lock_guard lock(m);
    if (const auto it = known.find(offset); it != known.end()) return it->second;
  }
  std::string text = symbolize(offset);
  std::lock_guard lock(m);
  return known.emplace(offset, std::move(text)).first->second;
}

std::string symbolize(std::int32_t offset) {
  const void* pc = pc_of(offset);
  Dl_info info{};
  if (!pc || dladdr(pc, &info) == 0 || !info.dli_fname) return "an unknown place";
  // The return address of the hook's call: the access is the instruction before it.
  const auto at = reinterpret_cast<std::uintptr_t>(pc) - 1 - reinterpret_cast<std::uintptr_t>(info.dli_fbase);
  char command[4200];
  std::snprintf(command, sizeof command, "addr2line -i -e '%s' 0x%jx 2>/dev/null", info.dli_fname,
                static_cast<std::uintmax_t>(at));
  std::string first, chosen;
  if (FILE* p = popen(command, "r")) {
    char line[4096];
    while (std::fgets(line, sizeof line, p)) {
      std::string l(line);
      while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
      if (const auto d = l.find(" (discriminator"); d != std::string::npos) l.erase(d);
      if (l.empty() || l.starts_with("??")) continue;
      if (first.empty()) first = l;
      if (chosen.empty() && !l.starts_with("/usr/")) chosen = l;
    }
    pclose(p);
  }
  if (!chosen.empty()) return chosen;
  if (!first.empty()) return first;
  return std::string("an unknown place (no line information for ") + info.dli_fname + "+0x" + [&] {
    char hex[32];
    std::snprintf(hex, sizeof hex, "%jx", static_cast<std::uintmax_t>(at));
    return std::string(hex);
  }() + ")";
}

std::string dim_text(std::uint64_t linear, const unsigned d[3]) {
  const std::uint64_t x = linear % d[0], y = linear / d[0] % d[1], z = linear / (std::uint64_t{d[0]} * d[1]);
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

std::string side_text(const Launch& l, const Side& s, Access kind, bool name_block, std::size_t bytes) {
  std::string who = s.thread == kMany ? std::string("several threads") : "thread " + dim_text(s.thread, l.shape.block);
  if (name_block) who += " of block " + dim_text(s.block, l.shape.grid);
  return who + (kind == Access::write ? " wrote" : " read") + (bytes ? " " + std::to_string(bytes) + " bytes" : "") +
         " at " + where_text(s.pc);
}

std::string report(const Launch& l, const Race& r) {
  std::string space;
  switch (r.space) {
    case Space::static_shared:
      space = "shared memory " + *r.region;
      break;
    case Space::dynamic_shared:
      space = "shared memory " + *r.region;
      break;
    case Space::global:
      space = "device memory of " + *r.region;
      break;
  }
  const bool cross = r.kind == Kind::cross_block;
  std::string out =
      kKindNames[static_cast<int>(r.kind)] + std::string(" in ") + space + ", byte " + std::to_string(r.offset) + ": ";
  if (r.kind == Kind::uninitialized_read) {
    out += side_text(l, r.later, Access::read, true, r.bytes) +
           ", which no thread of its block wrote before (shared memory starts undefined in every block)";
  } else {
    out += side_text(l, r.later, r.later_kind, true, r.bytes) + " that " +
           side_text(l, r.earlier, r.earlier_kind, cross, 0);
    if (r.kind == Kind::intra_warp)
      out +=
          ", lanes of one warp with no __syncwarp or warp collective between (independent thread scheduling: "
          "lanes of a warp may run apart)";
    else if (r.kind == Kind::intra_block)
      out += ", in the same barrier interval (no __syncthreads between)";
    else if (r.later_kind == Access::read && r.earlier_kind == Access::write)
      out += ", in the same launch with no __threadfence after the write (blocks run in any order and at once)";
    else
      out += ", in the same launch (blocks run in any order and at once)";
  }
  std::uint64_t more = 0;
  for (int k = 0; k < kKinds; ++k) more += l.count[k];
  if (more > 1) out += " (" + std::to_string(more - 1) + " more findings in this block)";
  return out;
}

inline bool separated(const Launch& l, const Side& s, int t) {  // lanes of one warp, ordered by a collective
  if (s.warp != static_cast<std::uint16_t>(t / 32)) return false;
  if (s.thread != kMany && !(l.sync[s.thread] > s.sync)) return false;
  return l.sync[static_cast<std::size_t>(t)] > s.sync;
}

void found(Launch& l, Kind category, const Region& region, std::uintptr_t granule, const Side& earlier,
           Access earlier_kind, const Side& later, Access later_kind, std::size_t bytes) {
  const int kind = static_cast<int>(category);
  ++l.count[kind];
  std::optional<Race>& slot = l.first[kind];
  if (slot) return;
  Race r;
  r.kind = category;
  r.space = region.space;
  r.region = region.name;
  r.offset = granule + static_cast<std::uintptr_t>(__builtin_ctz(later.mask | 0x100u)) - region.begin;
  r.earlier = earlier;
  r.earlier_kind = earlier_kind;
  r.later = later;
  r.later_kind = later_kind;
  r.bytes = bytes;
  slot = r;
}

inline void check_granule(Launch& l, const Region& region, std::uintptr_t granule, std::uint8_t mask, Access kind,
                          bool atomic, std::int32_t pc, std::size_t bytes) {
  Cell& c = region.cells[(granule - region.begin) / kGranule];
  const int t = t_thread;
  const auto warp = static_cast<std::uint16_t>(t / 32);
  const Side now{l.stamp, l.block, l.sync[static_cast<std::size_t>(t)], pc, static_cast<std::uint16_t>(t),
                 warp,    mask,    static_cast<std::uint8_t>(atomic)};
  const bool global = region.space == Space::global;
  const Side& w = c.write;
  if ((w.mask & mask) && !(atomic || w.atomic)) {
    if (w.stamp >= l.block_first) {
      if (w.stamp == l.stamp && w.thread != t && !separated(l, w, t))
        found(l, w.warp == warp ? Kind::intra_warp : Kind::intra_block, region, granule, w, Access::write, now, kind,
              bytes);
    } else if (global && w.stamp >= l.launch_first && w.block != l.block) {
      const auto fenced = l.block_fence.find(w.block);
      if (kind == Access::write || fenced == l.block_fence.end() || fenced->second <= c.fence_epoch)
        found(l, Kind::cross_block, region, granule, w, Access::write, now, kind, bytes);
    }
  }
  Side& r = c.read;
  if (kind == Access::write && (r.mask & mask) && !(atomic || r.atomic)) {
    if (r.stamp == l.stamp && r.block == l.block) {
      if (r.thread != t && !separated(l, r, t))
        found(l, r.warp == warp ? Kind::intra_warp : Kind::intra_block, region, granule, r, Access::read, now, kind,
              bytes);
    } else if (global && r.stamp >= l.launch_first && r.stamp < l.block_first && r.block != l.block) {
      found(l, Kind::cross_block, region, granule, r, Access::read, now, kind, bytes);
    }
  }
  if (kind == Access::read && !atomic && !global) {
    const std::uint8_t written = c.init_stamp == l.block_first ? c.init_mask : 0;
    if ((written & mask) != mask) found(l, Kind::uninitialized_read, region, granule, now, kind, now, kind, bytes);
  }
  if (kind == Access::write) {
    c.write = now;
    c.fence_epoch = l.fence_epoch;
    if (!global) {
      if (c.init_stamp != l.block_first) c.init_stamp = l.block_first, c.init_mask = 0;
      c.init_mask |= mask;
    }
  } else if (r.stamp == l.stamp && r.block == l.block) {
    // Readers of one interval. A single reader's record widens to the bytes it reads; once two
    // threads read, the record keeps only the bytes both read (a write there conflicts with one of
    // them whoever writes), so that a thread that writes the bytes it alone read is never reported.
    if (r.thread == t) {
      r.mask |= mask;
    } else if (r.mask & mask) {
      r.thread = kMany;
      if (r.warp != warp) r.warp = kMany;
      r.mask &= mask;
      r.sync = std::max(r.sync, now.sync);
      r.atomic &= now.atomic;
    }
  } else {
    r = now;
  }
}

inline const Region* region_of(Launch& l, std::uintptr_t a) {
  for (const Region& r : l.regions)
    if (a - r.begin < r.end - r.begin) return &r;
  return nullptr;
}

// --- the shadow the compiler's inline checks read ------------------------------------------------
#if defined(KVERIFY_EMU_RACE_HOOKS_ASAN_CALLS) && defined(KVERIFY_EMU_RACE_SHADOW_OFFSET)
// The kernels' checks are inline (cmake/KverifyRaceDetector.cmake): each access reads the byte at
// (address >> 3) + kShadowOffset and calls a report hook only when it is not zero. The detector makes
// it non-zero on watched memory alone, so that the kernels' other accesses (their stacks, the emu's
// own state) cost a load and a compare instead of a call. The layout is AddressSanitizer's for
// x86-64: the shadows of the low 2 GiB and of the high addresses where a PIE program, its heap, its
// libraries and its stacks live, mapped once before any kernel code runs (reads of untouched shadow
// pages cost no memory).
constexpr std::uintptr_t kShadowOffset = KVERIFY_EMU_RACE_SHADOW_OFFSET;
constexpr std::uintptr_t kLowMemEnd = 0x7fff8000, kHighMemBegin = 0x10007fff8000, kHighMemEnd = 0x800000000000;
inline unsigned char* shadow_byte(std::uintptr_t a) {
  return reinterpret_cast<unsigned char*>((a >> 3) + kShadowOffset);
}

// Defined by a program that checks shadow_problem() before it runs any kernel code (the kverify
// command line: `help` and every --help work without the shadow); any other program stops at start.
extern "C" __attribute__((weak)) const bool kverify_reports_missing_shadow;

// Why the shadow could not be mapped (empty: it is). A plain buffer: written before any dynamic
// initialiser runs.
char g_shadow_problem[640];

bool map_shadow_range(std::uintptr_t mem_begin, std::uintptr_t mem_end) {
  const auto begin = reinterpret_cast<std::uintptr_t>(shadow_byte(mem_begin));
  const auto end = reinterpret_cast<std::uintptr_t>(shadow_byte(mem_end));
  void* want = reinterpret_cast<void*>(begin);
  void* p = mmap(want, end - begin, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  if (p == want) return true;
  const int error = errno;
  if (p != MAP_FAILED) munmap(p, end - begin);
  rlimit as{};
  char limit[96] = "none";
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    std::snprintf(limit, sizeof limit, "%.1f GiB", static_cast<double>(as.rlim_cur) / (1ull << 30));
  std::snprintf(g_shadow_problem, sizeof g_shadow_problem,
                "emu's race detector cannot reserve the %.1f TiB of addresses (no memory: reserved, not used) "
                "its kernels' checks read at 0x%jx-0x%jx: %s; the address-space limit (ulimit -v) is %s. Raise "
                "or lift the limit (strict overcommit, vm.overcommit_memory=2, also prevents it), or build with "
                "-DKVERIFY_EMU_RACE_DETECTOR=OFF",
                static_cast<double>(end - begin) / (1ull << 40), static_cast<std::uintmax_t>(begin),
                static_cast<std::uintmax_t>(end), p == MAP_FAILED ? std::strerror(error) : "the range is taken", limit);
  return false;
}

// Before the kernels' own static initialisers (priority 101 runs before every default-priority
// one). Without the shadow no code of an instrumented library may run: the command line refuses
// every command but `help` and --help (shadow_problem()).
__attribute__((constructor(101))) void map_shadow() {
  if (map_shadow_range(0, kLowMemEnd) && map_shadow_range(kHighMemBegin, kHighMemEnd)) return;
  if (&kverify_reports_missing_shadow != nullptr) return;       // the program says so itself, per command
  std::fprintf(stderr, "kverify emu: %s\n", g_shadow_problem);  // any other program of the tree: it cannot run
  std::_Exit(70);
}

void set_watched(std::uintptr_t begin, std::uintptr_t end, bool watched) {
  if (end <= begin) return;
  unsigned char* from = shadow_byte(begin);
  unsigned char* to = shadow_byte(end - 1) + 1;
  std::memset(from, watched ? 0xff : 0, static_cast<std::size_t>(to - from));
}
#else
void set_watched(std::uintptr_t, std::uintptr_t, bool) {}
#endif

}  // namespace

const char* shadow_problem() {
#if defined(KVERIFY_EMU_RACE_HOOKS_ASAN_CALLS) && defined(KVERIFY_EMU_RACE_SHADOW_OFFSET)
  return g_shadow_problem[0] ? g_shadow_problem : nullptr;
#else
  return nullptr;
#endif
}

bool enabled() {
  int s = enabled_state.load(std::memory_order_relaxed);
  if (s < 0) {
    const char* v = std::getenv("KVERIFY_EMU_RACE_DETECTOR");
    s = v && (std::string_view(v) == "off" || std::string_view(v) == "0") ? 0 : 1;
    enabled_state.store(s, std::memory_order_relaxed);
  }
  return s == 1 && instrumented();
}
void set_enabled(bool on) { enabled_state.store(on ? 1 : 0, std::memory_order_relaxed); }

bool instrumented() {
#if defined(KVERIFY_EMU_RACE_HOOKS_ASAN_CALLS) || defined(KVERIFY_EMU_RACE_HOOKS_SANCOV)
  return true;
#else
  return false;
#endif
}

std::string status_text() {
#if defined(KVERIFY_EMU_RACE_DETECTOR_BUILT_OFF)
  return "off (built with -DKVERIFY_EMU_RACE_DETECTOR=OFF)";
#endif
  if (!instrumented())
    return "off (this build's kernels are not instrumented: the asan and tsan flavors leave the detector out)";
  if (!enabled()) return "off (KVERIFY_EMU_RACE_DETECTOR=off)";
  return "on";
}

void add_global_region(const void* base, std::size_t bytes, std::string name) {
  if (!base || bytes == 0) return;
  const auto b = reinterpret_cast<std::uintptr_t>(base);
  std::lock_guard lock(regions_mutex);
  registered().push_back({b, b + bytes, std::move(name), nullptr});
  if (enabled()) set_watched(b, b + bytes, true);
}
void remove_global_region(const void* base) {
  const auto b = reinterpret_cast<std::uintptr_t>(base);
  std::lock_guard lock(regions_mutex);
  auto& r = registered();
  for (auto it = r.end(); it != r.begin();)
    if ((--it)->begin == b) {
      // A launch still running holds its own reference: the pool gets the shadow once no one does.
      if (it->shadow.use_count() == 1) return_shadow(std::move(it->shadow));
      const std::uintptr_t begin = it->begin, end = it->end;
      r.erase(it);
      set_watched(begin, end, false);
      // A shadow byte covers 8 bytes, and registrations may overlap: the others stay watched.
      if (enabled())
        for (const Registered& o : r)
          if (o.begin < end + kGranule && begin < o.end + kGranule) set_watched(o.begin, o.end, true);
      return;
    }
}

void* carve_static_shared(std::size_t bytes, std::size_t alignment, const char* name) {
  Arena& a = arena();
  std::lock_guard lock(a.m);
  alignment = std::max<std::size_t>({alignment, 16, kGranule});
  const std::size_t at = (a.used + alignment - 1) / alignment * alignment;
  const std::size_t size = std::max<std::size_t>(bytes, 1);
  if (at + size + kRedzone > kArenaBytes)
    throw std::runtime_error("emu: the static __shared__ declarations of this program exceed the " +
                             std::to_string(kArenaBytes >> 20) + " MiB static shared arena (declaration '" + name +
                             "' of " + std::to_string(bytes) + " bytes)");
  a.used = at + size + kRedzone;
#if defined(KV_RACE_ASAN)
  __asan_unpoison_memory_region(a.base + at, size);
#endif
  const auto begin = reinterpret_cast<std::uintptr_t>(a.base + at);
  if (enabled()) set_watched(begin, begin + size + kRedzone, true);  // the redzone too: overflows are recorded
  a.slots.push_back(
      {begin, begin + size, std::string("'") + name + "' (static __shared__, " + std::to_string(bytes) + " bytes)"});
  arena_begin.store(reinterpret_cast<std::uintptr_t>(a.base), std::memory_order_relaxed);
  arena_end.store(reinterpret_cast<std::uintptr_t>(a.base) + a.used, std::memory_order_relaxed);
  return a.base + at;
}

void begin_launch(const LaunchShape& shape, const unsigned char* dynamic_shared, std::size_t dynamic_bytes) {
  if (!enabled()) return;
  auto* l = new Launch;
  l->shape = shape;
  if (g_stamp.load() > 0xf0000000u) {  // the counter would wrap: start every shadow afresh
    g_stamp = 0;
    arena().shadow.clear();
    std::lock_guard lock(regions_mutex);
    for (Registered& r : registered()) r.shadow.reset();
    shadow_pool().clear();
  }
  l->launch_first = g_stamp.load() + 1;
  Arena& a = arena();
  l->regions.push_back({reinterpret_cast<std::uintptr_t>(a.base),
                        reinterpret_cast<std::uintptr_t>(a.base) + kArenaBytes, Space::static_shared, a.shadow.data(),
                        nullptr});
  const auto dyn = reinterpret_cast<std::uintptr_t>(dynamic_shared) / kGranule * kGranule;
  l->dynamic_shadow = Shadow((reinterpret_cast<std::uintptr_t>(dynamic_shared) + dynamic_bytes - dyn) / kGranule + 1);
  l->regions.push_back({dyn, reinterpret_cast<std::uintptr_t>(dynamic_shared) + dynamic_bytes, Space::dynamic_shared,
                        l->dynamic_shadow.data(), &l->dynamic_name});
  set_watched(dyn, reinterpret_cast<std::uintptr_t>(dynamic_shared) + dynamic_bytes, true);
  {
    std::lock_guard lock(regions_mutex);
    l->names.reserve(registered().size());
    for (const Registered& r : registered()) l->names.push_back(r.name);
    std::size_t i = 0;
    for (Registered& r : registered()) {
      const std::uintptr_t begin = r.begin / kGranule * kGranule;
      if (!r.shadow) r.shadow = pooled_shadow((r.end - begin) / kGranule + 1);
      l->shadows.push_back(r.shadow);
      l->regions.push_back({begin, r.end, Space::global, r.shadow->data(), &l->names[i++]});
    }
  }
  t_launch = l;
  t_thread = -1;
}

void end_launch() {
  if (t_launch) set_watched(t_launch->regions[1].begin, t_launch->regions[1].end, false);
  delete t_launch;
  t_launch = nullptr;
  t_thread = -1;
}

void begin_block(std::uint64_t block_linear, int threads) {
  Launch* l = t_launch;
  if (!l) return;
  l->block = static_cast<std::uint32_t>(block_linear);
  l->block_first = l->stamp = ++g_stamp;
  l->sync.assign(static_cast<std::size_t>(threads), 0);
  l->warp_count.assign(static_cast<std::size_t>(threads + 31) / 32, 0);
  for (int k = 0; k < kKinds; ++k) l->first[k].reset(), l->count[k] = 0;
}

std::optional<std::string> end_block() {
  Launch* l = t_launch;
  t_thread = -1;
  if (!l) return std::nullopt;
  int kind = 0;
  while (kind < kKinds && !l->first[kind]) ++kind;
  if (kind == kKinds) return std::nullopt;
  Race& r = *l->first[kind];
  // Static shared memory: name the declaration the byte belongs to.
  if (r.space == Space::static_shared) {
    Arena& a = arena();
    std::lock_guard lock(a.m);
    const std::uintptr_t at = r.offset + reinterpret_cast<std::uintptr_t>(a.base);
    for (const Slot& s : a.slots)
      if (at >= s.begin && at < s.end) {
        r.region = &s.name;
        r.offset = at - s.begin;
      }
    static const std::string unknown = "(static __shared__)";
    if (!r.region) r.region = &unknown;
  }
  return report(*l, r);
}

void run_thread(int linear) { t_thread = linear; }

void barrier_released() {
  if (Launch* l = t_launch) l->stamp = ++g_stamp;
}

void warp_synchronised(int warp, unsigned lanes) {
  Launch* l = t_launch;
  if (!l) return;
  const std::uint32_t v = ++l->warp_count[static_cast<std::size_t>(warp)];
  for (unsigned m = lanes; m != 0; m &= m - 1) {
    const std::size_t t = static_cast<std::size_t>(warp) * 32 + static_cast<std::size_t>(__builtin_ctz(m));
    if (t < l->sync.size()) l->sync[t] = v;
  }
}

void record(const void* address, std::size_t bytes, Access kind, const void* pc) {
  Launch* l = t_launch;
  if (!l || t_thread < 0 || bytes == 0) return;
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  bool atomic = false;
  if (t_atomic > 0) {
    // Inside an atomic: its own accesses were recorded by AtomicScope; others are not expected.
    if (pc != nullptr && a >= t_atomic_begin && a < t_atomic_end) return;
    atomic = pc == nullptr;
  }
  const Region* region = region_of(*l, a);
  if (!region) return;
  if (region->space == Space::static_shared && a >= arena_end.load(std::memory_order_relaxed)) return;
  const std::uintptr_t end = std::min<std::uintptr_t>(a + bytes, region->end);
  const std::int32_t at = pc_offset(pc);
  for (std::uintptr_t g = a / kGranule * kGranule; g < end; g += kGranule) {
    const std::uintptr_t from = std::max(g, a), to = std::min(g + kGranule, end);
    const auto mask = static_cast<std::uint8_t>(((1u << (to - from)) - 1u) << (from - g));
    check_granule(*l, *region, g, mask, kind, atomic, at, bytes);
  }
}

void fence() {
  Launch* l = t_launch;
  if (!l || t_thread < 0) return;
  l->block_fence[l->block] = ++l->fence_epoch;
}

namespace {
constinit thread_local Collector* t_collector = nullptr;
}
Collector::Collector() : outer_(t_collector) { t_collector = this; }
Collector::~Collector() { t_collector = outer_; }
Collector* collector() { return t_collector; }

AtomicScope::AtomicScope(const void* address, std::size_t bytes) {
  if (!instrumented()) return;  // the sanitizer flavors: nothing records, and TSan would see fibers share this
  if (t_atomic++ == 0) {
    t_atomic_begin = reinterpret_cast<std::uintptr_t>(address);
    t_atomic_end = t_atomic_begin + bytes;
    record(address, bytes, Access::write, nullptr);
  }
}
AtomicScope::~AtomicScope() {
  if (instrumented()) --t_atomic;
}

}  // namespace kverify::emu::race

// The instrumentation's entry points (cmake/KverifyRaceDetector.cmake picks the kind; only the
// kernels' TUs call them). The return address locates the access in the kernel's source.
#define KV_RACE_HOOK(name, kind, size)                                                                            \
  extern "C" __attribute__((visibility("default"))) void name(void* address) {                                    \
    ::kverify::emu::race::record(address, size, ::kverify::emu::race::Access::kind, __builtin_return_address(0)); \
  }
#define KV_RACE_HOOK_N(name, kind)                                                                                 \
  extern "C" __attribute__((visibility("default"))) void name(void* address, std::size_t bytes) {                  \
    ::kverify::emu::race::record(address, bytes, ::kverify::emu::race::Access::kind, __builtin_return_address(0)); \
  }

// The sizes of one family of entry points: prefix##load4##suffix(addr) and so on.
#define KV_RACE_HOOK_SIZES(prefix, suffix)       \
  KV_RACE_HOOK(prefix##load1##suffix, read, 1)   \
  KV_RACE_HOOK(prefix##load2##suffix, read, 2)   \
  KV_RACE_HOOK(prefix##load4##suffix, read, 4)   \
  KV_RACE_HOOK(prefix##load8##suffix, read, 8)   \
  KV_RACE_HOOK(prefix##load16##suffix, read, 16) \
  KV_RACE_HOOK(prefix##store1##suffix, write, 1) \
  KV_RACE_HOOK(prefix##store2##suffix, write, 2) \
  KV_RACE_HOOK(prefix##store4##suffix, write, 4) \
  KV_RACE_HOOK(prefix##store8##suffix, write, 8) \
  KV_RACE_HOOK(prefix##store16##suffix, write, 16)

#if defined(KVERIFY_EMU_RACE_HOOKS_ASAN_CALLS)
// -fsanitize=kernel-address and no sanitizer runtime in the program. Outlined checks (a function
// too large for inline ones, or a target without the shadow layout) call these for every access:
KV_RACE_HOOK_SIZES(__asan_, _noabort)
KV_RACE_HOOK_N(__asan_loadN_noabort, read)
KV_RACE_HOOK_N(__asan_storeN_noabort, write)
KV_RACE_HOOK(__asan_unaligned_load2_noabort, read, 2)
KV_RACE_HOOK(__asan_unaligned_load4_noabort, read, 4)
KV_RACE_HOOK(__asan_unaligned_load8_noabort, read, 8)
KV_RACE_HOOK(__asan_unaligned_load16_noabort, read, 16)
KV_RACE_HOOK(__asan_unaligned_store2_noabort, write, 2)
KV_RACE_HOOK(__asan_unaligned_store4_noabort, write, 4)
KV_RACE_HOOK(__asan_unaligned_store8_noabort, write, 8)
KV_RACE_HOOK(__asan_unaligned_store16_noabort, write, 16)
// Inline checks: the report calls, made only for watched memory.
KV_RACE_HOOK_SIZES(__asan_report_, _noabort)
KV_RACE_HOOK_N(__asan_report_load_n_noabort, read)
KV_RACE_HOOK_N(__asan_report_store_n_noabort, write)
// What the instrumentation calls besides the checks (there is no sanitizer runtime to tell).
extern "C" __attribute__((visibility("default"))) void __asan_handle_no_return() {}
extern "C" __attribute__((visibility("default"))) void __asan_before_dynamic_init(const void*) {}
extern "C" __attribute__((visibility("default"))) void __asan_after_dynamic_init() {}
#endif

#if defined(KVERIFY_EMU_RACE_HOOKS_SANCOV)
// SanitizerCoverage's load/store tracing (the sanitizer runtimes define weak no-op versions).
KV_RACE_HOOK_SIZES(__sanitizer_cov_, )
#endif
