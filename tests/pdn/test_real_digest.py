"""The shared real files read exactly as before: per file, the number of games and a digest
of what the reader and the validator give for every game (tags, main-line moves, results,
finding codes, final positions) and of the rows the importer stores, against the digests
computed at commit 93d8a07 (before the layout-tolerant reader). A deliberate change on a real file updates its row here in a
commit of its own that says which games changed and why (``python -m tests.pdn.digests``
prints the current rows)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pdn.digests import file_digests, imported_rows, real_files
from tests.shared import shared_path

#: file -> (games, reader digest, validator digest)
DIGESTS: dict[str, tuple[int, str, str]] = {
    'antidraughts/random_pdns.derived.pdn': (25, '6938530555be43d004eed31e', '4e229fdbea78c475a346d8f6'),
    'brazilian/random_pdns.derived.pdn': (25, '419bb5a416d82a33b56fdecb', '88590b7b6b6b801191b4e746'),
    'breakthrough/random_pdns.derived.pdn': (25, '07f79003a46b3fc5b66a3929', 'a90714193c4faf93137f1a29'),
    'czech/mrcd2006.pdn': (44, '4bfa8866be16c62b7889ca36', '32f203e3de2cb51171fe0f7c'),
    'czech/mrdrcd08.pdn': (40, '59a64b00614f7645cdfed82e', '6054129bb52946cb1ce19e3e'),
    'english/1.txt': (1, '7b77d9ab81acd6ebf7d71788', 'ab019c75eef4a6d8cbb888d8'),
    'english/11_man_english.pdn': (2400, 'd89dec978f6977ca53a45a8f', '50aaf5cbd279d7ba9df3a4fd'),
    'english/OCA_2.0.pdn': (43, 'f197df24d3b27a5447e1fd58', '0c817c27d6481ff626f06e34'),
    'english/Principles of Strategy.pdn': (16, '123f045ccddd5e79924e2781', '2dbcd92192e49cec9b428a14'),
    'english/beginner.pdn': (58, '383ad8dbc7e60a0b106d4ad3', '99df5cf6d0490657ce91cc1f'),
    'english/bridges.pdn': (267, '6d77e34778dfa87cc9a0bccf', 'deb5325b14d464df0b7b56c9'),
    'english/gem.pdn': (162, '92d4723c6e9675b5df5321b1', 'ab4e18ab7ec66db1fea8f709'),
    'english/goulds.pdn': (262, '9292c9c9f400cb37210bc70f', 'b018bd8a27959d6fc39c0892'),
    'english/lpc.pdn': (100, '1a3a8757f234ee46d042cf1c', '1f1870e2d7e110119c7bc332'),
    # PlayStrategy's English exports write the first mover at the bottom (1. c3-d4): all
    # 30 games are now read on the board turned round, Black (P1) first as their move
    # numbers say (board-turned instead of move-number-mismatch); the reader's view is as
    # before, the replay's moves, positions and findings are not
    'english/random_pdns.derived.pdn': (30, '4fa04d11d0f6bfb3c9a6e1a5', '08cdc15591aa6af3525abdeb'),
    'frisian/random_pdns.derived.pdn': (14, 'b255bc17fbef47176d5b9d4e', 'fb397a07abf9ca656ca1e642'),
    'frysk/random_pdns.derived.pdn': (25, '9500c7fc3af8ed4c6b84cfe9', 'd91edd6a01a85f5a992f6eb8'),
    'international/DUTCH96H.pdn': (13, '3d8f9ee4ac9a822cab3ebb15', '35fa270c645349287268af47'),
    'international/PROF2.pdn': (16, '1d0687cbee7033056b9f807e', 'b511fc51bf15096059677e83'),
    'international/candidate95.pdn': (8, '4887f71320fbc01b397612b6', '775b96d6976c2bc3b0041377'),
    'international/delfts.pdn': (2, 'ef051954504ebec9fea3116b', 'be93bd39411b9bb5a348cf3e'),
    'international/kurnik.pdn': (4, 'e45973f6ae99458efeeec505', '9d3294ca55bcc6b5284446ef'),
    'international/nk2003-amsterdam.latin1.pdn': (33, 'c65d802205e0cda3bf70950c', '0bcd149124571e88e0449241'),
    'international/nk2003-amsterdam.pdn': (33, 'e50283732a662cb185cc1f2b', '6addbe95b3b4c818becb7ee7'),
    'international/random_pdns.derived.pdn': (13, '935214a6fdb30e94f037fdb6', '4fb1a3f01739c598ab4fe942'),
    'international/schildpad.pdn': (34, 'a85419b55933c923513286c2', 'd2430d685d1c52be85fed297'),
    'international/windragon.pdn': (1, 'da1e121274dc5315fee5d67c', 'ebafbaf4e76c5ceaaa8f09fc'),
    'international/wk2003.pdn': (23, '641af03b2e4f64f9dc33e229', '32ee5b7b734fb6714db664c7'),
    'italian/11_man_italian.pdn': (2400, 'a598502b227bd50ba16e531e', 'ec05f0289ed3e2ff3b5e01b0'),
    'russian/abatsiev.cp1251.pdn': (56, 'a9071dcf89f8e8fcb857052d', 'a21bee8da193b9f0cf6ba968'),
    'russian/abatsiev.pdn': (56, 'f86d414b1413378a5a97cacc', '9cf47aef0af38941d36ff250'),
    'russian/random_pdns.derived.pdn': (9, '609da793d6af6d3d43902fdf', '93a08c6773a0533ad1f6c4ea'),
}


@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_real_file_reads_as_before(name: str) -> None:
    path = shared_path("real", *name.split("/"))
    assert file_digests(path) == DIGESTS[name]


#: file -> digest of its imported ``games`` and ``moves`` rows (same commit)
IMPORTED: dict[str, str] = {
    'antidraughts/random_pdns.derived.pdn': '4f5ce9fd14db0f91a5082541',
    'brazilian/random_pdns.derived.pdn': '471500d09c7c91555af53e6e',
    'breakthrough/random_pdns.derived.pdn': '96af15ce7b6a2e3b8993e7f8',
    'czech/mrcd2006.pdn': 'c93c9ba75c84f215c74bc215',
    'czech/mrdrcd08.pdn': 'ab4ffdcae26cb8ef8b70ea6b',
    'english/1.txt': '40ecf06e10733903d0096ee4',
    'english/11_man_english.pdn': 'c17e4eee6501150b3ececb3c',
    'english/OCA_2.0.pdn': '5d72389020c7bb5ef2110e46',
    'english/Principles of Strategy.pdn': '9d14ce170cf97c7eebecac71',
    'english/beginner.pdn': 'df911c71a7662435f2a9f433',
    'english/bridges.pdn': 'ddf0f10c5147d7834af12fd6',
    'english/gem.pdn': 'ef6b3a84a99b19a176364533',
    'english/goulds.pdn': '8097c612c03991705553cd85',
    'english/lpc.pdn': '9d15940cf618bd1442338020',
    'english/random_pdns.derived.pdn': '2b2bd6a6d1997f09ed61a015',  # turned round (above)
    'frisian/random_pdns.derived.pdn': '4d714e21d083870d4a62b4a4',
    'frysk/random_pdns.derived.pdn': '0360652911c6d7ac065ae5b3',
    'international/DUTCH96H.pdn': '7815a80439be0965ef09fc80',
    'international/PROF2.pdn': 'bc1677c45506651113075b21',
    'international/candidate95.pdn': 'f7fde0716dd2ccdd7c085dd6',
    'international/delfts.pdn': '4c141c48494d0ef4bb493dac',
    'international/kurnik.pdn': '17be1badead3f6eee1e45cd6',
    'international/nk2003-amsterdam.latin1.pdn': '5470520e288b5d2e3494ac3a',
    'international/nk2003-amsterdam.pdn': 'bb9a9cc146b34322984c5b84',
    'international/random_pdns.derived.pdn': 'b34e597c576676010df903ac',
    'international/schildpad.pdn': '538953772a72df2a219b77aa',
    'international/windragon.pdn': '9d3119280206b15fcdb094b1',
    'international/wk2003.pdn': 'df2051a4966b9dc4a1d39607',
    'italian/11_man_italian.pdn': 'c7aa35630fcab865bd38d82d',
    'russian/abatsiev.cp1251.pdn': '593e23ca06a53a25c1cdfa4b',
    'russian/abatsiev.pdn': '56579d3bdea73e4e9f544359',
    'russian/random_pdns.derived.pdn': '4aa241b3363796c7b828bdea',
}


def test_real_files_import_the_same_rows(tmp_path: Path) -> None:
    root = shared_path("real")
    got = imported_rows(real_files(root), tmp_path / "real.duckdb")
    named = {Path(k).resolve().relative_to(root.resolve()).as_posix(): v for k, v in got.items()}
    assert named == IMPORTED
