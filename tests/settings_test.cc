// The byte counts of ROSCHED_SCRATCH_KEEP (settings.h, parse_bytes) against a reference that
// builds the text from a number and a suffix, and the bound it sets on the scratch buffers a
// thread keeps (datatype.h, ScratchBuffer): this binary runs with ROSCHED_SCRATCH_KEEP=3M, set
// before anything reads the settings, so buffers up to 1 MiB share 3 MiB and larger ones are
// never kept. It also sets the named settings it reads (ROSCHED_NODE_REDUCE, ROSCHED_SENDS,
// three of the ROSCHED_<COLLECTIVE> choices, one of them not a name it takes, and
// ROSCHED_NWAY_RULE, not a rule it takes) and numeric ones, some of them out of their range or
// not numbers at all, and checks the warnings each of those not taken gives.
#include "mpi_exec/settings.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "mpi_exec/datatype.h"

namespace rosched::mpi {
namespace {

const bool kKeepSet = setenv("ROSCHED_SCRATCH_KEEP", "3M", 1) == 0;
constexpr std::size_t kKeep = std::size_t{3} << 20;
// And ROSCHED_NODE_REDUCE=lanes, the node-aware reduction's form forced.
const bool kFormSet = setenv("ROSCHED_NODE_REDUCE", "lanes", 1) == 0;
// Named settings: a name, a synonym ("circulant" for rosched), a name that is not taken.
const bool kNamesSet =
    setenv("ROSCHED_SENDS", "eager", 1) == 0 && setenv("ROSCHED_BCAST", "native", 1) == 0 &&
    setenv("ROSCHED_REDUCE", "circulant", 1) == 0 &&
    setenv("ROSCHED_ALLREDUCE", "fastest", 1) == 0 && setenv("ROSCHED_NWAY_RULE", "Digits", 1) == 0;
// Numeric settings: taken (a whole number in range, a positive number), and not taken (above the
// range, a fraction, trailing text, not positive, empty): each of those keeps the default.
const bool kNumbersSet =
    setenv("ROSCHED_KARY_DEGREE", "5", 1) == 0 && setenv("ROSCHED_BCAST_F", "2.5", 1) == 0 &&
    setenv("ROSCHED_WINDOW", "160", 1) == 0 && setenv("ROSCHED_NWAY_N", "2.5", 1) == 0 &&
    setenv("ROSCHED_BCAST_PORTS", "3x", 1) == 0 && setenv("ROSCHED_ALPHA", "-1", 1) == 0 &&
    setenv("ROSCHED_BETA", "", 1) == 0;

TEST(ParseBytes, Examples) {
  std::size_t b = 7;
  EXPECT_TRUE(parse_bytes("0", &b));
  EXPECT_EQ(b, 0u);
  EXPECT_TRUE(parse_bytes("144M", &b));
  EXPECT_EQ(b, std::size_t{144} << 20);
  EXPECT_TRUE(parse_bytes("2g", &b));
  EXPECT_EQ(b, std::size_t{2} << 30);
  EXPECT_TRUE(parse_bytes("1152921504606846976", &b));  // 2^60, the most
  EXPECT_EQ(b, std::size_t{1} << 60);
  b = 7;
  for (const char* bad : {"", "-1", "+5", "1.5M", "12KB", "M", " 5", "5 ", "1T", "0x10",
                          "1152921504606846977", "1073741825G", "99999999999999999999999"}) {
    EXPECT_FALSE(parse_bytes(bad, &b)) << bad;
    EXPECT_EQ(b, 7u) << bad;  // untouched
  }
}

RC_GTEST_PROP(ParseBytes, NumberAndSuffix, ()) {
  const int shift = *rc::gen::element(0, 10, 20, 30);
  const std::uint64_t n =
      *rc::gen::inRange<std::uint64_t>(0, (std::uint64_t{1} << 60 >> shift) + 1);
  std::string text = std::to_string(n);
  if (shift > 0)
    text += *rc::gen::element<std::string>(shift == 10   ? "K"
                                           : shift == 20 ? "M"
                                                         : "G",
                                           shift == 10   ? "k"
                                           : shift == 20 ? "m"
                                                         : "g");
  std::size_t b = 0;
  RC_ASSERT(parse_bytes(text.c_str(), &b));
  RC_ASSERT(b == static_cast<std::size_t>(n << shift));
  // One more than the most is refused.
  const std::string over =
      std::to_string((std::uint64_t{1} << 60 >> shift) + 1) + text.substr(std::to_string(n).size());
  RC_ASSERT(!parse_bytes(over.c_str(), &b));
}

TEST(ScratchKeep, IsReadFromTheEnvironment) {
  ASSERT_TRUE(kKeepSet);
  EXPECT_EQ(settings().scratch_keep, kKeep);
}

TEST(NodeReduce, IsReadFromTheEnvironment) {
  ASSERT_TRUE(kFormSet);
  EXPECT_EQ(settings().node_reduce, Settings::NodeReduce::kLanes);
  EXPECT_NE(Settings().node_reduce, Settings::NodeReduce::kLanes);  // not the default
}

TEST(NamedSettings, AreReadFromTheEnvironment) {
  ASSERT_TRUE(kNamesSet);
  EXPECT_EQ(settings().sends, Settings::Sends::kEager);
  EXPECT_EQ(settings().bcast, Settings::Choice::kNative);
  EXPECT_EQ(settings().reduce, Settings::Choice::kRosched);
  EXPECT_EQ(settings().allreduce, Settings::Choice::kAuto);  // "fastest": a warning, then auto
  EXPECT_EQ(settings().allgather, Settings::Choice::kAuto);  // unset
  EXPECT_NE(Settings().sends, Settings::Sends::kEager);      // not the default
  EXPECT_EQ(settings().nway_rule, NwayRule::kCirculant);     // "Digits": a warning, the default
}

// Every value that is not taken says so on stderr, naming the variable, its text and what it
// takes; one that is taken says nothing.
TEST(Settings, WarnOfEachValueNotTaken) {
  ASSERT_TRUE(kNamesSet && kNumbersSet);
  testing::internal::CaptureStderr();
  const Settings read = settings_from_environment();
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(read.nway_rule, NwayRule::kCirculant);
  for (const char* line :
       {"rosched: ROSCHED_ALLREDUCE=fastest is not auto, model, rosched (circulant) or native; "
        "using auto\n",
        "rosched: ROSCHED_NWAY_RULE=Digits is not paper, digits or circulant; using circulant\n",
        "rosched: ROSCHED_WINDOW=160 is not a whole number from 1 to 64; ignored\n",
        "rosched: ROSCHED_NWAY_N=2.5 is not a whole number from 1 to 64; ignored\n",
        "rosched: ROSCHED_BCAST_PORTS=3x is not a whole number from 1 to 64; ignored\n",
        "rosched: ROSCHED_ALPHA=-1 is not a positive number; ignored\n"}) {
    EXPECT_NE(said.find(line), std::string::npos) << line << " not in:\n" << said;
  }
  for (const char* taken : {"ROSCHED_SENDS", "ROSCHED_BCAST=", "ROSCHED_REDUCE=", "ROSCHED_BETA",
                            "ROSCHED_KARY_DEGREE", "ROSCHED_SCRATCH_KEEP", "ROSCHED_NODE_REDUCE"}) {
    EXPECT_EQ(said.find(taken), std::string::npos) << taken << " in:\n" << said;
  }
  // A rule that is taken.
  ASSERT_EQ(setenv("ROSCHED_NWAY_RULE", "digits", 1), 0);
  EXPECT_EQ(settings_from_environment().nway_rule, NwayRule::kDigits);
  ASSERT_EQ(setenv("ROSCHED_NWAY_RULE", "Digits", 1), 0);
}

TEST(NumericSettings, AreReadFromTheEnvironment) {
  ASSERT_TRUE(kNumbersSet);
  const Settings defaults;
  EXPECT_EQ(settings().kary_degree, 5);
  EXPECT_EQ(settings().bcast_f, 2.5);
  EXPECT_EQ(settings().window, defaults.window);            // 160: above 64, a warning
  EXPECT_EQ(settings().nway_n, defaults.nway_n);            // a fraction
  EXPECT_EQ(settings().bcast_ports, defaults.bcast_ports);  // trailing text
  EXPECT_EQ(settings().alpha, defaults.alpha);              // not positive
  EXPECT_EQ(settings().beta, defaults.beta);                // empty: unset
  EXPECT_NE(defaults.kary_degree, 5);
  EXPECT_NE(defaults.bcast_f, 2.5);
}

// Buffers of random sizes made and dropped in random order: what the thread keeps never exceeds
// the bound, nothing above 1 MiB is kept (its share is 0 here), and a buffer is kept at all.
// Up to 32 buffers a case (16 of 0.5 MiB on average already pass the 3 MiB bound), the large ones
// up to 2 MiB: with up to 100 of up to 5 MiB the sanitized build took 51-60 s for the 1,000
// cases, out of a small test's minute.
RC_GTEST_PROP(ScratchKeep, BoundsWhatIsKept, ()) {
  const auto count = *rc::gen::inRange<std::size_t>(1, 33);
  const auto sizes = *rc::gen::container<std::vector<std::size_t>>(
      count, rc::gen::oneOf(rc::gen::inRange<std::size_t>(65, std::size_t{1} << 20),
                            rc::gen::inRange<std::size_t>((std::size_t{1} << 20) + 1,
                                                          (std::size_t{2} << 20) + 1)));
  std::vector<std::unique_ptr<ScratchBuffer>> live;
  for (std::size_t bytes : sizes) {
    live.push_back(std::make_unique<ScratchBuffer>(bytes));
    static_cast<unsigned char*>(live.back()->data())[bytes - 1] = 1;  // it holds `bytes`
    if (*rc::gen::inRange(0, 3) == 0) {
      live.erase(live.begin() + *rc::gen::inRange<std::size_t>(0, live.size()));
    }
    RC_ASSERT(scratch_kept_bytes() <= kKeep);
  }
  live.clear();
  RC_ASSERT(scratch_kept_bytes() <= kKeep);
  const std::size_t before = scratch_kept_bytes();
  { ScratchBuffer large(std::size_t{2} << 20); }
  RC_ASSERT(scratch_kept_bytes() == before);  // not kept
  { ScratchBuffer small(std::size_t{1} << 19); }
  RC_ASSERT(scratch_kept_bytes() > 0);
}

}  // namespace
}  // namespace rosched::mpi
