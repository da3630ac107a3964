package io.slagate.load.service;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.kernel.http.HTTPConstants;

/**
 * A TPC-W-like store as a SOAP service: the fourteen web interactions as operations, each
 * reading items of the store's tables through its server's {@link ItemCache}. Each answer declares the
 * data blocks it touched ({@value WorkingSetModel#WORKING_SET_HEADER}, which locality dispatch may learn
 * from) and its own hits and misses ({@value WorkingSetModel#CACHE_HEADER}, for experiments). Axis2 makes
 * one instance per request; the server's cache is in its Axis2 configuration context.
 */
public class Bookstore {
    public static final String SERVICE = "Bookstore";

    public String home(String who) throws AxisFault {
        return perform("home");
    }

    public String newProducts(String who) throws AxisFault {
        return perform("newProducts");
    }

    public String bestSellers(String who) throws AxisFault {
        return perform("bestSellers");
    }

    public String productDetail(String who) throws AxisFault {
        return perform("productDetail");
    }

    public String searchRequest(String who) throws AxisFault {
        return perform("searchRequest");
    }

    public String searchResults(String who) throws AxisFault {
        return perform("searchResults");
    }

    public String adminRequest(String who) throws AxisFault {
        return perform("adminRequest");
    }

    public String adminConfirm(String who) throws AxisFault {
        return perform("adminConfirm");
    }

    public String shoppingCart(String who) throws AxisFault {
        return perform("shoppingCart");
    }

    public String buyRequest(String who) throws AxisFault {
        return perform("buyRequest");
    }

    public String buyConfirm(String who) throws AxisFault {
        return perform("buyConfirm");
    }

    public String customerRegistration(String who) throws AxisFault {
        return perform("customerRegistration");
    }

    public String orderInquiry(String who) throws AxisFault {
        return perform("orderInquiry");
    }

    public String orderDisplay(String who) throws AxisFault {
        return perform("orderDisplay");
    }

    public String anyItem(String who) throws AxisFault {
        return perform("anyItem");
    }

    /** Reads the document named by the request's {@value WorkingSetModel#DOCUMENT_HEADER} header. */
    public String document(String who) throws AxisFault {
        MessageContext mc = MessageContext.getCurrentMessageContext();
        Object r = mc == null ? null : mc.getProperty(HTTPConstants.MC_HTTP_SERVLETREQUEST);
        String h = r instanceof HttpServletRequest request ? request.getHeader(WorkingSetModel.DOCUMENT_HEADER) : null;
        int k;
        try {
            k = h == null ? -1 : Integer.parseInt(h.trim());
        } catch (NumberFormatException e) {
            k = -1;
        }
        if (k < 0) {
            throw new AxisFault("document needs a " + WorkingSetModel.DOCUMENT_HEADER + " header: a whole number, got " + h);
        }
        return perform("document", k);
    }

    private static String perform(String operation) throws AxisFault {
        return perform(operation, -1);
    }

    private static String perform(String operation, int document) throws AxisFault {
        MessageContext mc = MessageContext.getCurrentMessageContext();
        ItemCache cache = mc == null ? null : (ItemCache) mc.getConfigurationContext().getProperty(ItemCache.PROPERTY);
        if (cache == null) {
            throw new AxisFault("this server has no data set (start it with a working-set model)");
        }
        ItemCache.Outcome o;
        try {
            o = cache.perform(operation, document);
        } catch (IllegalArgumentException e) {
            throw new AxisFault(e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AxisFault("interrupted");
        }
        Object r = mc.getProperty(HTTPConstants.MC_HTTP_SERVLETRESPONSE);
        if (r instanceof HttpServletResponse response) {
            response.setHeader(WorkingSetModel.WORKING_SET_HEADER, o.blocks());
            response.setHeader(WorkingSetModel.CACHE_HEADER, o.hits() + "/" + o.misses());
        }
        return operation + ": " + o.hits() + " hits, " + o.misses() + " misses";
    }
}
