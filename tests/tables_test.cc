// The table generator: list parsing, formats, Table 1 of Träff 2022 in TSV, and the hypercube
// broadcast of Träff's lecture notes against the lecture's example (p = 8, M = 5).
#include "tables/schedule_table.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "tables/hypercube_table.h"

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

// The cells of the row called `name` (without the name); fails the test if there is none.
std::vector<std::string> row_cells(const Grid& grid, const std::string& name) {
  for (const auto& row : grid) {
    if (row[0] == name) return std::vector<std::string>(row.begin() + 1, row.end());
  }
  ADD_FAILURE() << "no row " << name;
  return {};
}

TEST(Hypercube, LectureExampleP8) {
  const auto t = make_hypercube_table(8, 5, 0);
  EXPECT_FALSE(t.violation.has_value());
  EXPECT_EQ(t.rounds(), 7);  // "Done! 7 = 5+3-1 rounds"
  const Grid g = t.grid();
  // NEXTBIT(101) = 2, 1, 1 and NEXTBIT(100)[0] = 2, NEXTBIT(110)[1] = 1, NEXTBIT(010)[2] = 2.
  std::vector<std::string> nextbit5;
  for (int k = 0; k < 3; ++k) nextbit5.push_back(row_cells(g, "NEXTBIT[" + std::to_string(k) + "]")[5]);
  EXPECT_EQ(nextbit5, (std::vector<std::string>{"2", "1", "1"}));
  EXPECT_EQ(row_cells(g, "NEXTBIT[0]")[4], "2");
  EXPECT_EQ(row_cells(g, "NEXTBIT[1]")[6], "1");
  EXPECT_EQ(row_cells(g, "NEXTBIT[2]")[2], "2");
  EXPECT_EQ(row_cells(g, "unit")[5], "101");
  // Processor 5 on the slides: t(5,2) = 0, t(5,3) = 2, s(5,3) = 0, s(5,4) = 2, t(5,4) = 1,
  // s(5,5) = 2, t(5,5) = 3, s(5,6) = 3 (t(5,6) = 5 unclamped: the slide's 4 is clamped to M - 1).
  EXPECT_EQ(row_cells(g, "t(rep) 2")[5], "0");
  EXPECT_EQ(row_cells(g, "t(rep) 3")[5], "2");
  EXPECT_EQ(row_cells(g, "s(rep) 3")[5], "0");
  EXPECT_EQ(row_cells(g, "s(rep) 4")[5], "2");
  EXPECT_EQ(row_cells(g, "t(rep) 4")[5], "1");
  EXPECT_EQ(row_cells(g, "s(rep) 5")[5], "2");
  EXPECT_EQ(row_cells(g, "t(rep) 5")[5], "3");
  EXPECT_EQ(row_cells(g, "s(rep) 6")[5], "3");
  EXPECT_EQ(row_cells(g, "t(rep) 6")[5], "5");
  // Processors 4 and 6 (rounds 3 and 4): s(4,3) = 2, t(4,3) = 0, s(6,4) = 1, t(6,4) = 2.
  EXPECT_EQ(row_cells(g, "s(rep) 3")[4], "2");
  EXPECT_EQ(row_cells(g, "t(rep) 3")[4], "0");
  EXPECT_EQ(row_cells(g, "s(rep) 4")[6], "1");
  EXPECT_EQ(row_cells(g, "t(rep) 4")[6], "2");
  // The transfers: partner(5, j) = 5 XOR 2^(j mod 3); blocks clamped to M - 1 = 4; the root
  // sends min(j, M - 1) and never receives.
  EXPECT_EQ(row_cells(g, "recv 3")[5], "2<4");
  EXPECT_EQ(row_cells(g, "send 4")[5], "2>7");
  EXPECT_EQ(row_cells(g, "recv 6")[5], "4<4");
  EXPECT_EQ(row_cells(g, "send 6")[0], "4>1");
  EXPECT_EQ(row_cells(g, "recv 0")[0], "-");
  EXPECT_EQ(summary_line(t),
            "p=8 q=3 M=5 root=0 family=hypercube: valid broadcast (every rank but the root "
            "receives every block once) in 7 rounds = M-1+ceil(log2 p) = 5-1+3; 0 cooperating "
            "pairs");
}

TEST(Hypercube, PairsAndExtraRound) {
  const auto t = make_hypercube_table(11, 3, 0);
  EXPECT_FALSE(t.violation.has_value());
  EXPECT_EQ(t.pairs(), 3);
  EXPECT_EQ(t.rounds(), 3 - 1 + 4);
  const Grid g = t.grid();
  EXPECT_EQ(row_cells(g, "co"),
            (std::vector<std::string>{"0", "8", "9", "10", "4", "5", "6", "7", "1", "2", "3"}));
  EXPECT_EQ(row_cells(g, "rep"),
            (std::vector<std::string>{"0", "1", "2", "3", "4", "5", "6", "7", "1", "2", "3"}));
  // The last round is the exchange inside the pairs only: no s(rep), t(rep) rows for it.
  EXPECT_EQ(g.back()[0], "recv 5");
  EXPECT_EQ(g[g.size() - 3][0], "recv 4");
  EXPECT_EQ(g[g.size() - 5][0], "t(rep) 4");
  const auto send5 = row_cells(g, "send 5"), recv5 = row_cells(g, "recv 5");
  for (std::int64_t r : {0, 4, 5, 6, 7}) EXPECT_EQ(send5[r] + recv5[r], "--") << r;
  for (std::int64_t r = 1; r <= 3; ++r) {
    EXPECT_EQ(send5[r].substr(send5[r].find('>') + 1), std::to_string(r + 7));
    EXPECT_EQ(recv5[r + 7].substr(recv5[r + 7].find('<') + 1), std::to_string(r));
  }
  EXPECT_NE(summary_line(t).find("in 6 rounds = M-1+ceil(log2 p) = 3-1+4; 3 cooperating pairs"),
            std::string::npos);
}

TEST(Hypercube, RootRenumbersColumns) {
  const Grid g0 = make_hypercube_table(11, 4, 0).grid();
  const Grid g4 = make_hypercube_table(11, 4, 4).grid();
  ASSERT_EQ(g0.size(), g4.size());
  const auto shifted = [](const std::string& cell) {  // every rank in the cell plus 4, mod 11
    if (cell == "-" || cell.find_first_of("<>") == std::string::npos) return cell;
    const std::size_t arrow = cell.find_first_of("<>");
    return cell.substr(0, arrow + 1) + std::to_string((std::stoll(cell.substr(arrow + 1)) + 4) % 11);
  };
  for (std::size_t row = 1; row < g0.size(); ++row) {
    ASSERT_EQ(g0[row][0], g4[row][0]);
    const bool rank_row = g0[row][0] == "rep" || g0[row][0] == "co";
    for (int r = 0; r < 11; ++r) {
      const std::string& cell = g0[row][1 + r];
      EXPECT_EQ(g4[row][1 + (r + 4) % 11],
                rank_row ? std::to_string((std::stoll(cell) + 4) % 11) : shifted(cell))
          << g0[row][0] << " rank " << r;
    }
  }
}

TEST(Hypercube, DefaultBlocksAndBadArguments) {
  EXPECT_EQ(default_hypercube_blocks(1), 1);
  EXPECT_EQ(default_hypercube_blocks(8), 4);
  EXPECT_EQ(default_hypercube_blocks(11), 4);
  const auto one = make_hypercube_table(1, 1, 0);
  EXPECT_FALSE(one.violation.has_value());
  EXPECT_EQ(one.rounds(), 0);
  EXPECT_EQ(one.grid().size(), 4u);  // rank, rep, co, unit
  EXPECT_THROW(make_hypercube_table(8, 0, 0), std::invalid_argument);
  EXPECT_THROW(make_hypercube_table(8, 5, 8), std::invalid_argument);
  EXPECT_THROW(make_hypercube_table(0, 5, 0), std::invalid_argument);
  EXPECT_THROW(check_hypercube_table_args(100000, 1000, 0), std::invalid_argument);
  EXPECT_THROW(check_hypercube_table_args(1, std::int64_t{1} << 62, 0), std::invalid_argument);
  EXPECT_NO_THROW(check_hypercube_table_args(100000, default_hypercube_blocks(100000), 0));
}

TEST(Hypercube, EveryFormat) {
  const auto t = make_hypercube_table(11, 3, 2);
  for (Format f : {Format::text, Format::tsv, Format::csv, Format::markdown, Format::latex}) {
    std::ostringstream out;
    render(t, f, out);
    EXPECT_NE(out.str().find("NEXTBIT[2]"), std::string::npos);
    EXPECT_NE(out.str().find("recv 5"), std::string::npos);
    EXPECT_NE(out.str().find("10"), std::string::npos);
  }
}

}  // namespace
}  // namespace rosched::tables
