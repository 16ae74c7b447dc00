// Test helper: writes a ZIP archive of stored (uncompressed) members, to build small
// XLSX files for the Denchmark reader tests.
#pragma once

#include <cstdint>
#include <string>

namespace dlfl::eval::test {

// A ZIP of stored members, laid out as any archiver writes one (APPNOTE 4.3).
class ZipWriter {
 public:
  void add(const std::string& name, const std::string& content) {
    const std::uint32_t crc = crc32(content);
    const auto offset = static_cast<std::uint32_t>(bytes_.size());
    put32(bytes_, 0x04034b50);
    put16(bytes_, 20);
    put16(bytes_, 0);  // flags
    put16(bytes_, 0);  // stored
    put32(bytes_, 0);  // time, date
    put32(bytes_, crc);
    put32(bytes_, static_cast<std::uint32_t>(content.size()));
    put32(bytes_, static_cast<std::uint32_t>(content.size()));
    put16(bytes_, static_cast<std::uint16_t>(name.size()));
    put16(bytes_, 0);
    bytes_ += name + content;

    put32(central_, 0x02014b50);
    put16(central_, 20);
    put16(central_, 20);
    put16(central_, 0);
    put16(central_, 0);
    put32(central_, 0);
    put32(central_, crc);
    put32(central_, static_cast<std::uint32_t>(content.size()));
    put32(central_, static_cast<std::uint32_t>(content.size()));
    put16(central_, static_cast<std::uint16_t>(name.size()));
    for (int k = 0; k < 4; ++k) put16(central_, 0);  // extra, comment, disk, internal attrs
    put32(central_, 0);                              // external attributes
    put32(central_, offset);
    central_ += name;
    ++count_;
  }

  std::string finish() const {
    std::string out = bytes_ + central_;
    put32(out, 0x06054b50);
    put32(out, 0);
    put16(out, count_);
    put16(out, count_);
    put32(out, static_cast<std::uint32_t>(central_.size()));
    put32(out, static_cast<std::uint32_t>(bytes_.size()));
    put16(out, 0);
    return out;
  }

 private:
  static void put16(std::string& out, std::uint16_t v) {
    out.push_back(static_cast<char>(v & 0xFF));
    out.push_back(static_cast<char>(v >> 8));
  }
  static void put32(std::string& out, std::uint32_t v) {
    put16(out, static_cast<std::uint16_t>(v & 0xFFFF));
    put16(out, static_cast<std::uint16_t>(v >> 16));
  }
  static std::uint32_t crc32(const std::string& data) {
    std::uint32_t crc = 0xFFFFFFFFu;
    for (const char ch : data) {
      crc ^= static_cast<unsigned char>(ch);
      for (int k = 0; k < 8; ++k) crc = (crc & 1) ? 0xEDB88320u ^ (crc >> 1) : crc >> 1;
    }
    return crc ^ 0xFFFFFFFFu;
  }

  std::string bytes_, central_;
  std::uint16_t count_ = 0;
};

// A minimal Dataset.xlsx with a "Project_Classes" sheet: header row, then one row per
// (project, category) pair.
inline std::string project_classes_xlsx(const std::string& rows_xml) {
  ZipWriter zip;
  zip.add("xl/workbook.xml",
          "<workbook xmlns:r=\"r\"><sheets><sheet name=\"Project_Classes\" r:id=\"rId5\"/>"
          "</sheets></workbook>");
  zip.add("xl/_rels/workbook.xml.rels",
          "<Relationships><Relationship Id=\"rId5\" Target=\"worksheets/sheet5.xml\"/></Relationships>");
  zip.add("xl/worksheets/sheet5.xml",
          "<worksheet><sheetData><row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>User/Project</t></is></c>"
          "<c r=\"C1\" t=\"inlineStr\"><is><t>Type</t></is></c></row>" +
              rows_xml + "</sheetData></worksheet>");
  return zip.finish();
}

// One Project_Classes row for project_classes_xlsx().
inline std::string project_class_row(int row, const std::string& project, const std::string& category) {
  const std::string r = std::to_string(row);
  return "<row r=\"" + r + "\"><c r=\"A" + r + "\" t=\"inlineStr\"><is><t>" + project +
         "</t></is></c><c r=\"C" + r + "\" t=\"inlineStr\"><is><t>" + category + "</t></is></c></row>";
}

}  // namespace dlfl::eval::test
