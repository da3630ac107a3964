-- wrk script: a SOAP 1.1 request whose metadata drives classification (two classes, alternating)
wrk.method = "POST"
local head = '<?xml version="1.0"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><ns:getQuote xmlns:ns="urn:stock"><ns:symbol>IBM'
local tail = '</ns:symbol></ns:getQuote></soapenv:Body></soapenv:Envelope>'
-- BODY_BYTES (environment): pad the symbol so the body is that long (the default request is 223 bytes)
local pad = (tonumber(os.getenv("BODY_BYTES") or "0") or 0) - #head - #tail
wrk.body = head .. (pad > 0 and string.rep("x", pad) or "") .. tail
wrk.headers["Content-Type"] = "text/xml; charset=utf-8"
local n = 0
request = function()
  n = n + 1
  local action = (n % 2 == 0) and '"urn:premium"' or '"urn:getQuote"'
  -- a headers table given to wrk.format replaces wrk.headers: repeat Content-Type here
  return wrk.format(nil, "/services/StockUtility", { ["Content-Type"] = "text/xml; charset=utf-8", ["SOAPAction"] = action })
end
