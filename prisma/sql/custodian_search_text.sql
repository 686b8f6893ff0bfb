-- custodian_search_text: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.custodian_search_text(body bytea)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
AS $function$
-- What search reads of an original: its first 65,536 bytes (cut back to a whole UTF-8 character)
-- as text, so that every character stands for a known run of the original bytes.
-- Valid UTF-8 without NUL: the text itself, each character its UTF-8 length in bytes.
-- Otherwise (not UTF-8, or holding NUL, or holding U+F780..U+F7FF, kept to mean raw bytes):
-- one character per byte: NUL as a space, bytes 0x01..0x7F as themselves, 0x80..0xFF as
-- U+F780..U+F7FF. lib/server/search/byte-offsets.ts turns text positions back into byte offsets
-- with the same rule.
DECLARE
  cut integer := octet_length(body);
  head bytea;
  decoded text;
BEGIN
  IF body IS NULL THEN
    RETURN NULL;
  END IF;
  IF cut > 65536 THEN
    cut := 65536;
    WHILE cut > 65533 AND (get_byte(body, cut) & 192) = 128 LOOP
      cut := cut - 1;
    END LOOP;
    head := substring(body FROM 1 FOR cut);
  ELSE
    head := body;
  END IF;
  BEGIN
    decoded := convert_from(head, 'UTF8');
    IF decoded !~ ('[' || chr(63360) || '-' || chr(63487) || ']') THEN
      RETURN decoded;
    END IF;
  EXCEPTION WHEN character_not_in_repertoire OR untranslatable_character THEN
    NULL;
  END;
  RETURN (SELECT coalesce(string_agg(chr(CASE WHEN b = 0 THEN 32 WHEN b >= 128 THEN 63232 + b ELSE b END), '' ORDER BY i), '')
            FROM (SELECT i, get_byte(head, i) AS b FROM generate_series(0, octet_length(head) - 1) AS i) AS bytes);
END;
$function$;
