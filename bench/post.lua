-- wrk script: a SOAP 1.1 request whose metadata drives classification (two classes, alternating)
wrk.method = "POST"
wrk.body = '<?xml version="1.0"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><ns:getQuote xmlns:ns="urn:stock"><ns:symbol>IBM</ns:symbol></ns:getQuote></soapenv:Body></soapenv:Envelope>'
wrk.headers["Content-Type"] = "text/xml; charset=utf-8"
local n = 0
request = function()
  n = n + 1
  local action = (n % 2 == 0) and '"urn:premium"' or '"urn:getQuote"'
  -- a headers table given to wrk.format replaces wrk.headers: repeat Content-Type here
  return wrk.format(nil, "/services/StockUtility", { ["Content-Type"] = "text/xml; charset=utf-8", ["SOAPAction"] = action })
end
