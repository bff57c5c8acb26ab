-- Flink's hash functions: the digest of the UTF-8 bytes as lower-case
-- hexadecimal ("a string of 32 hexadecimal digits" for MD5, 40 for SHA1,
-- 56, 64, 96 and 128 for SHA224 to SHA512); NULL for NULL; SHA2's
-- hashLength is 224, 256, 384 or 512.
SELECT MD5('hello world') AS md5, SHA1('hello world') AS sha1,
       SHA224('hello world') AS sha224, SHA256('hello world') AS sha256;

SELECT SHA384('') AS sha384_empty, SHA512('abc') AS sha512_abc,
       SHA2('abc', 256) = SHA256('abc') AS sha2_256, SHA2('abc', 100) AS sha2_bad_length,
       MD5(CAST(NULL AS STRING)) AS md5_null;
