-- `tillpoint_check(ok, message)`: true when `ok`, else the statement fails with `message`
-- (SQLSTATE P0004, assert_failure) and writes nothing. A statement that writes several rows which
-- must move together says so with it, in words, where it answers (the payment outcome's statement,
-- persistence/stores/payments/payments.ts).

CREATE FUNCTION tillpoint_check(ok boolean, message text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF ok IS NOT TRUE THEN RAISE EXCEPTION '%', message USING ERRCODE = 'assert_failure'; END IF;
  RETURN true;
END $$;
