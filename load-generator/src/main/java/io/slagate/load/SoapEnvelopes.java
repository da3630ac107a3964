package io.slagate.load;


/** The requests the load generator sends: real SOAP envelopes for the synthetic StockUtility service. */
public final class SoapEnvelopes {
    /** The target namespace Axis2 derives from the service class's package. */
    public static final String SERVICE_NS = "http://service.load.slagate.io";
    public static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
    public static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";

    private SoapEnvelopes() {
    }

    public static String request11(String operation, String symbol) {
        return envelope(SOAP11, operation, symbol);
    }

    public static String request12(String operation, String symbol) {
        return envelope(SOAP12, operation, symbol);
    }

    private static String envelope(String soapNs, String operation, String symbol) {
        String count = operation.endsWith("Shares") ? "<ns:count>10</ns:count>" : "";
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                + "<soapenv:Envelope xmlns:soapenv=\"" + soapNs + "\" xmlns:ns=\"" + SERVICE_NS + "\">"
                + "<soapenv:Body><ns:" + operation + "><ns:symbol>" + symbol + "</ns:symbol>" + count
                + "</ns:" + operation + "></soapenv:Body></soapenv:Envelope>";
    }
}
