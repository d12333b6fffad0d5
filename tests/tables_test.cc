// The table generator: list parsing, formats, and Table 1 of seeds/001 in TSV.
#include "tables/schedule_table.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

namespace rosched::tables {
namespace {

TEST(PList, ValuesAndRanges) {
  EXPECT_EQ(parse_p_list("9,31-33", 100, 100), (std::vector<std::int64_t>{9, 31, 32, 33}));
  EXPECT_EQ(parse_p_list("20", 100, 100), (std::vector<std::int64_t>{20}));
}

TEST(PList, RejectsMalformed) {
  for (const char* bad : {"", ",", "0", "-3", "5-", "a", "3,,4", "7-2", "101", "1-200", "9 "}) {
    EXPECT_THROW(parse_p_list(bad, 100, 1000), std::invalid_argument) << "'" << bad << "'";
  }
  EXPECT_THROW(parse_p_list("1-50", 100, 10), std::invalid_argument);
}

TEST(Format, Names) {
  EXPECT_EQ(parse_format("latex"), Format::latex);
  EXPECT_THROW(parse_format("yaml"), std::invalid_argument);
}

TEST(Table, Table1AsTsv) {
  std::ostringstream out;
  render(make_table(20, 0, Construction::paper), Format::tsv, out);
  std::istringstream in(out.str());
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  ASSERT_EQ(lines.size(), 12u);
  EXPECT_EQ(lines[0], "rank\t0\t1\t2\t3\t4\t5\t6\t7\t8\t9\t10\t11\t12\t13\t14\t15\t16\t17\t18\t19");
  EXPECT_EQ(lines[1], "baseblock\t-\t0\t1\t2\t0\t3\t0\t1\t2\t0\t4\t0\t1\t2\t0\t3\t0\t1\t2\t0");
  EXPECT_EQ(lines[2], "recv[0]\t-5\t0\t-5\t-4\t-3\t-5\t-2\t-5\t-4\t-3\t-5\t-1\t-5\t-4\t-3\t-5\t-2\t-5\t-4\t-3");
  EXPECT_EQ(lines[11], "send[4]\t4\t0\t1\t2\t0\t3\t0\t1\t2\t0\t-1\t-1\t-1\t-1\t-1\t-1\t-1\t-1\t-1\t-1");
}

TEST(Table, RootRenumbersColumns) {
  const auto t0 = make_table(9, 0, Construction::paper).grid();
  const auto t4 = make_table(9, 4, Construction::paper).grid();
  for (std::size_t row = 1; row < t0.size(); ++row) {
    for (int r = 0; r < 9; ++r) EXPECT_EQ(t4[row][1 + (r + 4) % 9], t0[row][1 + r]);
  }
  EXPECT_THROW(make_table(9, 9, Construction::paper), std::invalid_argument);
}

TEST(Table, SummaryAndFormatsMentionEveryRank) {
  const auto t = make_table(33, 0, Construction::paper);
  EXPECT_FALSE(t.violation.has_value());
  EXPECT_EQ(summary_line(t),
            "p=33 q=6 skips=1,2,3,5,9,17,33 root=0 construction=paper: valid schedule for all 33 "
            "ranks; n-block broadcast in n-1+6 rounds");
  for (Format f : {Format::text, Format::csv, Format::markdown, Format::latex}) {
    std::ostringstream out;
    render(t, f, out);
    EXPECT_NE(out.str().find("32"), std::string::npos);
  }
}

}  // namespace
}  // namespace rosched::tables
