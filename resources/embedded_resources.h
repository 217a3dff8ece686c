#pragma once

#include <span>
#include <string_view>

namespace tally {

// A data file from resources/, embedded at build time (see cmake/embed_files.cmake).
struct EmbeddedFile {
    std::string_view path;  // relative to resources/, e.g. "hardware/catalog.json"
    std::string_view contents;
};

// Every embedded file, sorted by path.
std::span<const EmbeddedFile> embedded_files();

}  // namespace tally
