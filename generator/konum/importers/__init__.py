"""Readers of other tools' question files (Moodle XML, GIFT, Aiken), each giving drafts of
bank questions (:mod:`konum.importers.model`) that :mod:`konum.importers.write` writes as a
bank; ``konum import`` (:mod:`konum.importing`) checks and writes it."""
