"""MkDocs hooks (``mkdocs.yml``: ``hooks:``): the manual's links out of ``docs/``, kept working.

The pages link with relative paths that work on a code host: ``docs/library.md`` links to
``../formats/gaddag.md``, the README to ``docs/index.md``. A static site holds only what
lies under ``docs/``, so these hooks bring in every repository file the pages link to, at
``_repo/PATH`` on the site (the README, the format specs, the compiled core's contract, and
whatever those link to in turn), and rewrite each relative link to the site's path of its
target. The Markdown files stay as they are; ``mkdocs build --strict`` then checks every link.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

OUTSIDE = "_repo"  # where the repository's files outside docs/ go on the site
LINK = re.compile(r"(!?\[[^\]]*\]\()([^)\s]+)(\))")
FENCE = re.compile(r"^(```|~~~)", re.M)


def _roots(config: Any) -> tuple[Path, Path]:
    """(the repository's root, the docs folder)."""
    return Path(config["config_file_path"]).resolve().parent, Path(config["docs_dir"]).resolve()


def _outside_code(markdown: str) -> list[tuple[bool, str]]:
    """The page cut into (is prose, text) pieces: fenced code blocks are left alone."""
    pieces, prose, start = [], True, 0
    for fence in FENCE.finditer(markdown):
        end = fence.start()
        pieces.append((prose, markdown[start:end]))
        prose, start = not prose, end
    pieces.append((prose, markdown[start:]))
    return pieces


def _target(repo_path: str, link: str) -> tuple[str, str] | None:
    """A relative link of the file at ``repo_path`` as (the repository path it names, the
    #anchor part), or None for a link that is not to a file of the repository."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", link, re.I) or link.startswith(("#", "/")):
        return None
    path, _, anchor = link.partition("#")
    named = posixpath.normpath(posixpath.join(posixpath.dirname(repo_path), path))
    return None if named.startswith("..") else (named, anchor)


def _site_uri(repo_path: str) -> str:
    """Where a repository file is on the site: docs/X at X, anything else at _repo/X."""
    return repo_path[len("docs/"):] if repo_path.startswith("docs/") else f"{OUTSIDE}/{repo_path}"


def on_files(files: Files, config: Any) -> Files:
    """Add every repository file outside docs/ that a page links to (and that those link to)."""
    repo, docs = _roots(config)
    docs_prefix = docs.relative_to(repo).as_posix()
    queue = [f"{docs_prefix}/{f.src_uri}" for f in files.documentation_pages()]
    seen = set(queue)
    while queue:
        page = queue.pop()
        text = (repo / page).read_text(encoding="utf-8")
        for prose, piece in _outside_code(text):
            for match in LINK.finditer(piece) if prose else ():
                found = _target(page, match.group(2))
                if found is None or found[0] in seen or found[0].startswith(docs_prefix + "/"):
                    continue
                seen.add(found[0])
                if not (repo / found[0]).is_file():
                    continue  # (mkdocs --strict reports the broken link)
                files.append(File.generated(config, _site_uri(found[0]), abs_src_path=str(repo / found[0])))
                if found[0].endswith(".md"):
                    queue.append(found[0])
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Rewrite each relative link of a page to its target's place on the site."""
    repo, docs = _roots(config)
    uri = page.file.src_uri
    here = uri[len(OUTSIDE) + 1:] if uri.startswith(OUTSIDE + "/") else f"{docs.relative_to(repo).as_posix()}/{uri}"

    def rewrite(match: re.Match[str]) -> str:
        found = _target(here, match.group(2))
        if found is None:
            return match.group(0)
        named, anchor = found
        target = _site_uri(named)
        relative = posixpath.relpath(target, posixpath.dirname(uri) or ".")
        return f"{match.group(1)}{relative}{'#' + anchor if anchor else ''}{match.group(3)}"

    return "".join(LINK.sub(rewrite, piece) if prose else piece for prose, piece in _outside_code(markdown))

