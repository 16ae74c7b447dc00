// Tests for the minimal XLSX reader: DEFLATE streams of each block type, a ZIP built
// here (stored members), sheet lookup through the workbook relations, and corrupt input.
#include "dlfl/lab/eval/denchmark_xlsx.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "dlfl/error.h"
#include "denchmark_zip_writer.h"

namespace dlfl::eval {
namespace {

std::string from_hex(std::string_view hex) {
  std::string bytes;
  for (std::size_t k = 0; k + 1 < hex.size(); k += 2)
    bytes.push_back(static_cast<char>(std::stoi(std::string(hex.substr(k, 2)), nullptr, 16)));
  return bytes;
}

// The text the dynamic-Huffman stream below encodes (Python: zlib, level 9, raw).
std::string numbers_text() {
  std::string text;
  for (int i = 0; i < 200; ++i) text += std::to_string((i * i * 7919) % 97) + (i % 13 ? "," : "\n");
  return text;
}

TEST(DenchmarkXlsxInflate, StoredBlock) {
  EXPECT_EQ(inflate_raw(from_hex("010700f8ff73746f72656421"), 100, "t"), "stored!");
}

TEST(DenchmarkXlsxInflate, FixedHuffmanBlockWithBackReferences) {
  EXPECT_EQ(inflate_raw(from_hex("cb48cdc9c957c84027b900"), 100, "t"), "hello hello hello hello\n");
}

TEST(DenchmarkXlsxInflate, DynamicHuffmanBlock) {
  const std::string compressed = from_hex(
      "6d90398e0531084473cef28206bcc0fd2f36e58e46fd2d11d862a9aaf7d80ae6602711f4c449a78a3da9269341"
      "586c76b39cfdd0ec60a93b498d07be189bb24edc993a3489c17c58d4a217a9a2075eb6343c184d3923c96014ed"
      "ac714a0f7d334cad33d067582b5e673dcfa17e8f2e9d3789486abeb212af63436664295f7b32b9c3fa983ed61b"
      "c590de09a56827609db06e8aadf0422010c2f17061621f265c98d897091726f665c28d89fd30e1c6c43e4cb830"
      "b11f26fc30b12f132e4cec3f933f");
  const std::string expected = numbers_text();
  ASSERT_EQ(expected.size(), 569u);
  EXPECT_EQ(inflate_raw(compressed, expected.size(), "t"), expected);
}

TEST(DenchmarkXlsxInflate, RejectsTruncatedAndOversizedOutput) {
  const std::string hello = from_hex("cb48cdc9c957c84027b900");
  EXPECT_THROW(inflate_raw(hello.substr(0, 5), 100, "t"), Error);
  EXPECT_THROW(inflate_raw(hello, 10, "t"), Error);  // a bomb guard, not a full read
  EXPECT_THROW(inflate_raw(from_hex("07"), 100, "t"), Error);  // block type 3 is reserved
  EXPECT_THROW(inflate_raw(from_hex("010700f7ff73746f72656421"), 100, "t"), Error);  // LEN/NLEN
}

std::string small_workbook() {
  test::ZipWriter zip;
  zip.add("xl/workbook.xml",
          R"(<?xml version="1.0" encoding="UTF-8"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"
          xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">
  <sheets><sheet name="Other" sheetId="1" r:id="rId1"/><sheet name="Classes" sheetId="2" r:id="rId2"/></sheets>
</workbook>)");
  zip.add("xl/_rels/workbook.xml.rels",
          R"(<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Id="rId1" Target="worksheets/sheet1.xml"/>
  <Relationship Id="rId2" Target="/xl/worksheets/sheet9.xml"/>
</Relationships>)");
  zip.add("xl/sharedStrings.xml",
          R"(<sst><si><t>User/Project</t></si><si><r><t>Ty</t></r><r><t>pe</t></r><rPh><t>x</t></rPh></si>
<si><t>a+b</t></si></sst>)");
  zip.add("xl/worksheets/sheet1.xml", "<worksheet><sheetData/></worksheet>");
  zip.add("xl/worksheets/sheet9.xml",
          R"(<worksheet><sheetData>
  <row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="s"><v>1</v></c></row>
  <row r="3"><c r="A3" t="s"><v>2</v></c><c r="B3"><v>2.5</v></c><c r="C3" t="inlineStr"><is><t>Tool</t></is></c></row>
</sheetData></worksheet>)");
  return zip.finish();
}

TEST(DenchmarkXlsxSheet, ReadsSharedInlineAndNumericCellsAtTheirPositions) {
  const SheetRows rows = read_xlsx_sheet(small_workbook(), "Classes", "book.xlsx");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"User/Project", "", "Type"}));  // rich text joined
  EXPECT_TRUE(rows[1].empty());                                                // row 2 absent
  EXPECT_EQ(rows[2], (std::vector<std::string>{"a+b", "2.5", "Tool"}));
  EXPECT_TRUE(read_xlsx_sheet(small_workbook(), "Other", "book.xlsx").empty());
}

// Issue #14: a member declaring 4 GB was allocated up front, whatever its real size.
TEST(DenchmarkXlsxSheet, DeclaredSizeBeyondWhatDeflateCanProduceIsRefusedBeforeAllocating) {
  test::ZipWriter zip;
  zip.add("xl/workbook.xml", "tiny");
  std::string bytes = zip.finish();
  const std::size_t central = bytes.find("PK\x01\x02");
  ASSERT_NE(central, std::string::npos);
  bytes[central + 10] = 8;  // method: deflate
  const std::uint32_t declared = 0xFFFFFF00u;
  std::memcpy(bytes.data() + central + 24, &declared, 4);
  try {
    read_xlsx_sheet(bytes, "Classes", "book.xlsx");
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr("declares 4294967040 bytes from 4 compressed"));
  }
}

TEST(DenchmarkXlsxSheet, ErrorsNameTheFile) {
  try {
    read_xlsx_sheet(small_workbook(), "Missing", "book.xlsx");
    FAIL() << "no error for a missing sheet";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()), "book.xlsx: no sheet named \"Missing\"");
  }
  EXPECT_THROW(read_xlsx_sheet(std::string("not a zip at all, not at all"), "Classes", "x.xlsx"), Error);
  std::string corrupt = small_workbook();
  corrupt[corrupt.find("User/Project")] = 'X';  // content no longer matches its CRC
  EXPECT_THROW(read_xlsx_sheet(corrupt, "Classes", "x.xlsx"), Error);
}

}  // namespace
}  // namespace dlfl::eval
