// Minimal XLSX sheet reader: the ZIP central directory (inflated by zlib) and the
// SpreadsheetML parts needed to read one sheet's cells as text.
#include "dlfl/lab/eval/denchmark_xlsx.h"

#include <zlib.h>

#include <array>
#include <cstdint>
#include <map>
#include <pugixml.hpp>

#include "bugset_io.h"
#include "dlfl/error.h"

namespace dlfl::eval {
namespace {

// ---- ZIP -------------------------------------------------------------------------------

std::uint32_t crc32_of(std::string_view bytes) {
  return static_cast<std::uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

struct ZipEntry {
  std::uint16_t method = 0;
  std::uint16_t flags = 0;
  std::uint32_t crc = 0;
  std::uint32_t compressed_size = 0;
  std::uint32_t size = 0;
  std::uint32_t local_header_offset = 0;
};

class ZipArchive {
 public:
  ZipArchive(std::string_view bytes, const std::string& source) : bytes_(bytes), source_(source) {
    read_central_directory();
  }

  bool contains(const std::string& name) const { return entries_.count(name) != 0; }

  std::string extract(const std::string& name) const {
    const auto it = entries_.find(name);
    if (it == entries_.end()) fail("no member " + name);
    const ZipEntry& entry = it->second;
    if (entry.flags & 1) fail(name + " is encrypted");
    const std::size_t header = entry.local_header_offset;
    if (u32(header) != 0x04034b50) fail("bad local header for " + name);
    const std::size_t data = header + 30 + u16(header + 26) + u16(header + 28);
    if (data + entry.compressed_size > bytes_.size()) fail(name + " runs past the end");
    const std::string_view raw = bytes_.substr(data, entry.compressed_size);
    std::string content;
    if (entry.method == 0) {
      content.assign(raw);
    } else if (entry.method == 8) {
      // DEFLATE expands at most ~1032:1: a larger declared size is a lie that would
      // otherwise be allocated up front (4 GB from a few bytes).
      if (entry.size > raw.size() * 1032 + 1024)
        fail(name + ": declares " + std::to_string(entry.size) + " bytes from " + std::to_string(raw.size()) +
             " compressed, more than DEFLATE can produce");
      content = inflate_raw(raw, entry.size, source_ + " (" + name + ")");
    } else {
      fail(name + ": unsupported compression method " + std::to_string(entry.method));
    }
    if (content.size() != entry.size || crc32_of(content) != entry.crc)
      fail(name + ": size or CRC mismatch");
    return content;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(source_, 0, "not a readable XLSX/ZIP file: " + what);
  }
  std::uint16_t u16(std::size_t at) const {
    if (at + 2 > bytes_.size()) fail("truncated");
    return static_cast<std::uint16_t>(static_cast<unsigned char>(bytes_[at]) |
                                      static_cast<unsigned char>(bytes_[at + 1]) << 8);
  }
  std::uint32_t u32(std::size_t at) const {
    return static_cast<std::uint32_t>(u16(at)) | static_cast<std::uint32_t>(u16(at + 2)) << 16;
  }

  void read_central_directory() {
    // The end record (22 bytes + a comment of at most 65535) closes the file.
    constexpr std::size_t end_record_size = 22;
    if (bytes_.size() < end_record_size) fail("too short");
    std::size_t end = bytes_.size() - end_record_size;
    const std::size_t lowest = end > 65535 ? end - 65535 : 0;
    while (u32(end) != 0x06054b50) {
      if (end == lowest) fail("no end of central directory");
      --end;
    }
    const std::size_t count = u16(end + 10);
    std::size_t at = u32(end + 16);
    if (u32(end + 16) == 0xFFFFFFFFu) fail("ZIP64 is not supported");
    for (std::size_t k = 0; k < count; ++k) {
      if (u32(at) != 0x02014b50) fail("bad central directory entry");
      ZipEntry entry;
      entry.flags = u16(at + 8);
      entry.method = u16(at + 10);
      entry.crc = u32(at + 16);
      entry.compressed_size = u32(at + 20);
      entry.size = u32(at + 24);
      entry.local_header_offset = u32(at + 42);
      const std::size_t name_length = u16(at + 28);
      if (at + 46 + name_length > bytes_.size()) fail("truncated central directory");
      std::string name(bytes_.substr(at + 46, name_length));
      if (entry.size == 0xFFFFFFFFu || entry.compressed_size == 0xFFFFFFFFu)
        fail("ZIP64 is not supported");
      entries_.emplace(std::move(name), entry);
      at += 46 + name_length + u16(at + 30) + u16(at + 32);
    }
  }

  std::string_view bytes_;
  const std::string& source_;
  std::map<std::string, ZipEntry> entries_;
};

// ---- SpreadsheetML ---------------------------------------------------------------------

pugi::xml_document parse_part(const std::string& xml, const std::string& where) {
  pugi::xml_document doc;
  const pugi::xml_parse_result result = doc.load_buffer(xml.data(), xml.size());
  if (!result) throw Error(where, 0, std::string("XML parse error: ") + result.description());
  return doc;
}

// Text of a shared or inline string: its <t> runs, leaving out phonetic hints (<rPh>).
std::string string_item_text(const pugi::xml_node item) {
  std::string text;
  for (const pugi::xml_node child : item.children()) {
    const std::string_view name = child.name();
    if (name == "t") text += child.text().get();
    if (name == "r") text += child.child("t").text().get();
  }
  return text;
}

// 0-based column of a cell reference like "AB12"; -1 when there are no letters.
long column_of(std::string_view ref) {
  long column = 0;
  std::size_t k = 0;
  for (; k < ref.size() && ref[k] >= 'A' && ref[k] <= 'Z'; ++k) column = column * 26 + (ref[k] - 'A' + 1);
  return k == 0 ? -1 : column - 1;
}

// The member path of the sheet called `sheet_name`, through workbook.xml and its rels.
std::string sheet_member(const ZipArchive& zip, std::string_view sheet_name, const std::string& source) {
  const pugi::xml_document workbook = parse_part(zip.extract("xl/workbook.xml"), source);
  std::string relation_id;
  for (const pugi::xml_node sheet : workbook.child("workbook").child("sheets").children("sheet")) {
    if (sheet_name != sheet.attribute("name").value()) continue;
    for (const pugi::xml_attribute attribute : sheet.attributes()) {
      const std::string_view name = attribute.name();
      if (name.ends_with(":id")) relation_id = attribute.value();
    }
  }
  if (relation_id.empty()) throw Error(source, 0, "no sheet named \"" + std::string(sheet_name) + "\"");
  const pugi::xml_document rels = parse_part(zip.extract("xl/_rels/workbook.xml.rels"), source);
  for (const pugi::xml_node rel : rels.child("Relationships").children("Relationship")) {
    if (relation_id != rel.attribute("Id").value()) continue;
    const std::string target = rel.attribute("Target").value();
    return target.starts_with('/') ? target.substr(1) : "xl/" + target;
  }
  throw Error(source, 0, "sheet \"" + std::string(sheet_name) + "\" has no part");
}

}  // namespace

std::string inflate_raw(std::string_view compressed, std::size_t max_output,
                        const std::string& source_name) {
  // Raw DEFLATE (ZIP members carry no zlib header): negative window bits.
  z_stream stream{};
  if (inflateInit2(&stream, -15) != Z_OK) throw Error(source_name, 0, "cannot start zlib");
  std::string out(max_output + 1, '\0');  // one spare byte detects more output than declared
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = inflate(&stream, Z_FINISH);
  const std::size_t produced = stream.total_out;
  inflateEnd(&stream);
  if (produced > max_output) throw Error(source_name, 0, "compressed data: output larger than declared");
  if (status != Z_STREAM_END)
    throw Error(source_name, 0, std::string("compressed data: ") +
                                    (status == Z_BUF_ERROR ? "ends early" : "corrupt (zlib error " + std::to_string(status) + ")"));
  out.resize(produced);
  return out;
}

SheetRows read_xlsx_sheet(std::string_view xlsx_bytes, std::string_view sheet_name,
                          const std::string& source_name) {
  const ZipArchive zip(xlsx_bytes, source_name);
  std::vector<std::string> shared_strings;
  if (zip.contains("xl/sharedStrings.xml")) {
    const pugi::xml_document doc = parse_part(zip.extract("xl/sharedStrings.xml"), source_name);
    for (const pugi::xml_node item : doc.child("sst").children("si"))
      shared_strings.push_back(string_item_text(item));
  }
  const pugi::xml_document sheet =
      parse_part(zip.extract(sheet_member(zip, sheet_name, source_name)), source_name);
  SheetRows rows;
  for (const pugi::xml_node row : sheet.child("worksheet").child("sheetData").children("row")) {
    const std::size_t row_number = row.attribute("r").as_ullong(rows.size() + 1);
    if (row_number == 0 || row_number > 1'048'576) throw Error(source_name, 0, "bad row number");
    if (rows.size() < row_number) rows.resize(row_number);
    std::vector<std::string>& cells = rows[row_number - 1];
    for (const pugi::xml_node cell : row.children("c")) {
      long column = column_of(cell.attribute("r").value());
      if (column < 0) column = static_cast<long>(cells.size());
      if (column > 16383) throw Error(source_name, 0, "bad cell reference");
      const std::string_view type = cell.attribute("t").value();
      std::string value;
      if (type == "inlineStr") {
        value = string_item_text(cell.child("is"));
      } else if (type == "s") {
        const std::size_t index = cell.child("v").text().as_ullong(shared_strings.size());
        if (index >= shared_strings.size()) throw Error(source_name, 0, "bad shared string index");
        value = shared_strings[index];
      } else {
        value = cell.child("v").text().get();
      }
      if (cells.size() <= static_cast<std::size_t>(column)) cells.resize(column + 1);
      cells[column] = std::move(value);
    }
  }
  return rows;
}

SheetRows read_xlsx_sheet(const std::filesystem::path& path, std::string_view sheet_name) {
  const std::string bytes = detail::read_file_bytes(path, detail::kMaxTableBytes, "workbook");
  return read_xlsx_sheet(bytes, sheet_name, path.string());
}

}  // namespace dlfl::eval
