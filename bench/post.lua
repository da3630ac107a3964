-- wrk script: a SOAP 1.1 request whose metadata drives classification (two classes, alternating)
wrk.method = "POST"
local head = '<?xml version="1.0"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><ns:getQuote xmlns:ns="urn:stock"><ns:symbol>IBM'
local tail = '</ns:symbol></ns:getQuote></soapenv:Body></soapenv:Envelope>'
-- BODY_BYTES (environment): pad the symbol so the body is that long (the default request is 223 bytes)
local pad = (tonumber(os.getenv("BODY_BYTES") or "0") or 0) - #head - #tail
wrk.body = head .. (pad > 0 and string.rep("x", pad) or "") .. tail
wrk.headers["Content-Type"] = "text/xml; charset=utf-8"
-- CLOSE=1 (environment): every request on its own connection; CUSTOMERS=K (at most 8): HTTP Basic users c0..c(K-1), alternating
local close = os.getenv("CLOSE") == "1"
local customers = tonumber(os.getenv("CUSTOMERS") or "0") or 0
-- the Basic credentials "cK:pw", K = 0..7, encoded
local users = { "YzA6cHc=", "YzE6cHc=", "YzI6cHc=", "YzM6cHc=", "YzQ6cHc=", "YzU6cHc=", "YzY6cHc=", "Yzc6cHc=" }
local basic = {}
for i = 0, math.min(customers, #users) - 1 do basic[i] = "Basic " .. users[i + 1] end
local n = 0
request = function()
  n = n + 1
  local action = (n % 2 == 0) and '"urn:premium"' or '"urn:getQuote"'
  -- a headers table given to wrk.format replaces wrk.headers: repeat Content-Type here
  local h = { ["Content-Type"] = "text/xml; charset=utf-8", ["SOAPAction"] = action }
  if close then h["Connection"] = "close" end
  if customers > 0 then h["Authorization"] = basic[n % customers] end
  return wrk.format(nil, "/services/StockUtility", h)
end
